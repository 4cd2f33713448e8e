// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace servelab::metrics {

// Counts system calls made by some threads, from the kernel's raw_syscalls:sys_enter
// tracepoint (perf_event_open, counting mode: no samples, no buffer, a few ns per call).
// Hand-written on the syscall: Debian packages no library that counts a tracepoint per thread.
// Needs perf events allowed (root, or kernel.perf_event_paranoid at most 1 for one's own
// processes) and tracefs (mounted here if it is not, as perf does).
// The kernel registers the tracepoint when its first event opens and unregisters it when its
// last closes, each time waiting for RCU (tens of ms): the first tracepointId() keeps one
// disabled event open for the process's life, and the clients call it before their start.
class SyscallCounter
{
public:
    // Counts the calls of each of `tids` from now, and of the threads they start; false with
    // *why (perf events not allowed, no tracepoint) and nothing counted.
    bool start(const std::vector<pid_t> &tids, std::string *why);
    // The calling thread's calls from now.
    bool startThisThread(std::string *why);
    // Calls counted so far, summed; -1 when not started.
    std::int64_t count() const;
    void stop() { m_fds.clear(); }

    // The tracepoint's id, or -1 with *why. The first call registers the tracepoint for good.
    static int tracepointId(std::string *why);

private:
    bool open(pid_t tid, bool inherit, std::string *why);

    std::vector<os::UniqueFd> m_fds;
};

} // namespace servelab::metrics
