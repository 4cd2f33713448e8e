// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstdint>

namespace servelab::metrics {

// What a piece of work cost the machine: CPU time (user and system apart), context switches,
// page faults, bytes read from the disk and system calls made. A side's total over a point
// (the server's processes, the client's threads); -1 in a figure that could not be read
// (syscalls where perf events are not allowed, everything for a url target with no pid).
struct ResourceUse
{
    std::int64_t userMicros = -1;
    std::int64_t systemMicros = -1;
    std::int64_t voluntarySwitches = -1;   // the thread waited (I/O, a lock, epoll_wait)
    std::int64_t involuntarySwitches = -1; // the scheduler took the CPU away
    std::int64_t minorFaults = -1;
    std::int64_t majorFaults = -1; // a page read from the disk
    std::int64_t diskReadBytes = -1;
    std::int64_t syscalls = -1;
    // Threads that used at least a twentieth of a core over the interval: what "busy" is
    // measured against (a server's idle main thread does not halve its saturation).
    std::int64_t busyThreads = -1;
    // Time the threads were runnable but waited for a CPU (schedstat's run delay): what they
    // would have run on a machine of their own. A side that ran 60 % and waited 35 % wanted 95 %.
    std::int64_t waitMicros = -1;

    bool known() const { return userMicros >= 0; }
    std::int64_t cpuMicros() const { return known() ? userMicros + systemMicros : -1; }

    // Sums figure by figure; a figure unknown on either side stays unknown, unless this one
    // is empty (all unknown), when it takes `other`'s.
    ResourceUse &operator+=(const ResourceUse &other);
    // What was used between two readings (this one the later); unknown stays unknown.
    ResourceUse operator-(const ResourceUse &earlier) const;

    // Every figure, named once: the database's columns, the bundle's keys, the exports.
    struct Field
    {
        const char *key; // "user_us": "server_user_us" and "client_user_us" in a point
        std::int64_t ResourceUse::*member;
    };
    static constexpr std::array<Field, 10> fields{{
        {"user_us", &ResourceUse::userMicros},
        {"system_us", &ResourceUse::systemMicros},
        {"voluntary_switches", &ResourceUse::voluntarySwitches},
        {"involuntary_switches", &ResourceUse::involuntarySwitches},
        {"minor_faults", &ResourceUse::minorFaults},
        {"major_faults", &ResourceUse::majorFaults},
        {"disk_read_bytes", &ResourceUse::diskReadBytes},
        {"syscalls", &ResourceUse::syscalls},
        {"busy_threads", &ResourceUse::busyThreads},
        {"wait_us", &ResourceUse::waitMicros},
    }};

    // The calling thread so far (getrusage RUSAGE_THREAD, its schedstat's run delay);
    // syscalls and busyThreads unknown.
    static ResourceUse ofThisThread();
};

// A /proc schedstat file's first two figures in µs: the time the thread ran, and the time it
// was runnable on a run queue but not running. -1 each when it cannot be read (a kernel
// without schedstats).
struct SchedStat
{
    std::int64_t ranMicros = -1;
    std::int64_t waitMicros = -1;
};
SchedStat readSchedStat(const char *path);

} // namespace servelab::metrics
