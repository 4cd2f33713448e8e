// SPDX-License-Identifier: Apache-2.0
#include "threadpriority.h"

#include <atomic>
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>

namespace servelab::ui {

namespace {

// The process's own nice value, from before the GUI thread raised itself; -1000: not raised.
std::atomic<int> normalNice{-1000};

} // namespace

bool raiseGuiThread()
{
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, 0);
    if (errno != 0)
        return false;
    // PRIO_PROCESS with a thread id changes that thread alone (Linux: nice is per thread).
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), now - 5) != 0)
        return false;
    normalNice = now;
    return true;
}

void restoreNormalPriority()
{
    const int nice = normalNice.load();
    if (nice > -1000) // raising a nice value back is always allowed
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice);
}

} // namespace servelab::ui
