// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "resourceuse.h"

#include <cstdint>
#include <sys/types.h>
#include <vector>

namespace servelab::metrics {

// Processes' use of the machine read from /proc at one instant, thread by thread, to subtract
// from another: each thread's CPU time (its schedstat run time, to the µs; user and system
// apart in ticks), context switches, page faults and bytes read from the disk. Keyed by thread,
// so that a worker process or thread started in between counts from its start; one gone in
// between is lost, with what it used since the first reading. Read twice per point, never on a
// hot path.
class ProcessUsage
{
public:
    struct Thread
    {
        pid_t tid = 0;
        std::int64_t cpuMicros = 0;
        std::int64_t userTicksMicros = 0; // in clock ticks (10 ms), the split of cpuMicros
        std::int64_t systemTicksMicros = 0;
        std::int64_t voluntarySwitches = 0;
        std::int64_t involuntarySwitches = 0;
        std::int64_t minorFaults = 0;
        std::int64_t majorFaults = 0;
        std::int64_t diskReadBytes = -1; // -1: /proc/.../io not readable
        std::int64_t waitMicros = -1;    // schedstat's run delay; -1: not readable
    };
    struct Reading
    {
        std::int64_t atMicros = 0;   // monotonicMicros()
        std::vector<Thread> threads; // by tid
    };

    // The threads of `pids` (and, with `tree`, of their descendants now).
    static Reading read(const std::vector<pid_t> &pids, bool tree = false);
    // The thread ids of those processes now (what SyscallCounter counts).
    static std::vector<pid_t> threadsOf(const std::vector<pid_t> &pids);
    // What was used from `before` to `after` (syscalls unknown), busyThreads counted: the
    // threads that used at least `busyShare` of a core in between. Unknown when `after` read
    // no thread.
    static ResourceUse between(const Reading &before, const Reading &after);
    static constexpr double busyShare = 0.05;
};

} // namespace servelab::metrics
