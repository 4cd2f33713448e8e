// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "foldedstacks.h"

#include <QList>
#include <QString>

namespace servelab::profile {

// Who waited for a lock, from an off-CPU profile: a block whose stack passes through a lock
// primitive (glibc's mutex and rwlock slow paths, a condition wait taking its mutex back, the
// kernel's mutexes and rw-semaphores) is a lock wait, and its waiter is the first frame below
// the lock's own (std::mutex::lock, lock_guard, condition_variable and glibc's frames skipped):
// the function that asked for the lock. Waiting on a condition variable, a semaphore or epoll
// is waiting for work, not for a lock, and is not counted.
class LockWaiters
{
public:
    struct Waiter
    {
        QString function;  // "servelab::server::PollerShared::push", templates cut
        double micros = 0; // off-CPU, summed
    };

    // Most waited first.
    static QList<Waiter> of(const FoldedStacks &offCpu);
    // The lock-wait stacks alone, to draw as their own flame graph.
    static FoldedStacks stacks(const FoldedStacks &offCpu);
    // The frame is a lock primitive's (the table in lockwaiters.cpp).
    static bool isLockFrame(const QString &frame);
};

} // namespace servelab::profile
