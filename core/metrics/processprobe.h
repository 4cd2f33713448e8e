// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace servelab::metrics {

// One process of a server made of several (ProcessTreeProbe): its own figures in a sample.
struct ProcessPart
{
    pid_t pid = 0;
    int fds = 0;
    int threads = 0;
    std::int64_t rssBytes = 0;
    double cpuSeconds = 0; // user and system so far
};

// What a process looks like at one instant: its descriptors by type, its limits and its use of
// the machine. Descriptor types come from each link under /proc/<pid>/fd.
struct ProcessSample
{
    std::int64_t atMicros = 0; // monotonicMicros()
    // A sample that found nothing to read (the process is gone): its time alone.
    static ProcessSample goneAt(std::int64_t micros)
    {
        ProcessSample sample;
        sample.atMicros = micros;
        return sample;
    }
    bool alive = false; // false: the process is gone (or could not be read); no figures
    int total = 0;      // open descriptors, exact in every sample
    // Whether the counts by type below were read in this sample (when the process holds many
    // descriptors they are read less often, to keep the sampler's cost down; then they are 0).
    bool byType = false;
    int sockets = 0;
    int files = 0; // a path outside /dev (directories included: the link does not say)
    int pipes = 0;
    int anonInodes = 0; // epoll, eventfd, timerfd, io_uring, ...
    int other = 0;      // devices (/dev/...) and anything else
    int fdLimit = -1;   // RLIMIT_NOFILE (soft), -1 when it cannot be read
    int threads = 0;
    std::int64_t rssBytes = 0;
    double userSeconds = 0;   // CPU time so far
    double systemSeconds = 0; //
    // A server of several processes (ProcessTreeProbe): the figures above are summed over them;
    // `parts` holds each one's (empty for a single process).
    int processes = 1;
    std::vector<ProcessPart> parts;

    int fds() const { return total; }
};

// One open descriptor of a process, as lsof would list it.
struct OpenFd
{
    int fd = -1;
    std::string target; // the link: "socket:[1234]", "/srv/root/4K.bin", "anon_inode:[eventpoll]"
    std::string type;   // "socket", "file", "pipe", "anon_inode", "other"
    pid_t pid = 0;      // in a tree of processes, the one that holds it (0: the root)
};

// Reads one process from /proc with handles opened once (the fd folder and the stat file).
// The total of descriptors is exact in every sample: stat() of /proc/<pid>/fd gives it in one
// call (Linux 6.2 and later; before, the folder is listed every sample). Types need the folder
// listed, about 1 µs per descriptor in the kernel, so when a listing costs more than
// `listingBudgetMicros` the types are read every few samples only (1000 descriptors: every
// third). A listing reads the links of the descriptors it has not seen before and refreshes at
// most `refreshPerListing` of the others (round robin): a number closed and reused for another
// type between two listings shows under its old type until its refresh. Up to
// refreshPerListing descriptors, every listing is exact. Not thread-safe; one sampler owns it.
class ProcessProbe
{
public:
    ProcessProbe() = default;
    ProcessProbe(const ProcessProbe &) = delete;
    ProcessProbe &operator=(const ProcessProbe &) = delete;
    ~ProcessProbe();

    // Opens /proc/<pid>; false with *error set (no such process, no permission).
    bool open(pid_t pid, std::string *error);
    pid_t pid() const { return m_pid; }
    // The process now. The types of its descriptors are listed when their budget allows
    // (ProcessSample::byType; else the total alone), or always with `byType`.
    ProcessSample sample(bool byType = false);
    // Every descriptor with its target, by number: the leak detector's before and after.
    std::vector<OpenFd> openFds();

    // "socket", "file", "pipe", "anon_inode" or "other", from a /proc/<pid>/fd link.
    static const char *typeOf(std::string_view target);
    static constexpr int refreshPerListing = 64;
    static constexpr std::int64_t listingBudgetMicros = 500; // per 100 ms sample: 0.5 % of a core

private:
    // visit(fd, name) for every entry; false when the folder cannot be read.
    template<typename Visit>
    bool forEachEntry(Visit visit);
    template<typename Visit>
    bool forEachFd(Visit visit);
    void detach();

    pid_t m_pid = 0;
    void *m_fdDir = nullptr; // DIR*, kept out of the header
    os::UniqueFd m_statFd;
    // The type ('s', 'f', 'p', 'a', 'o') of each descriptor seen in the last sample, by number.
    std::vector<std::pair<int, char>> m_types;
    std::vector<std::pair<int, char>> m_nextTypes;
    int m_refreshFrom = 0;     // where the round robin of refreshes goes on
    bool m_statCounts = false; // stat() of the fd folder gives the count (Linux >= 6.2)
    int m_listEvery = 1;       // list the folder every this many samples
    int m_sinceListing = 0;
    bool listTypes(ProcessSample &s);
    long m_ticksPerSecond = 100;
    long m_pageSize = 4096;
};

} // namespace servelab::metrics
