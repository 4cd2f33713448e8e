// SPDX-License-Identifier: Apache-2.0
#include "processprobe.h"

#include "clock.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace servelab::metrics {

namespace {

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

} // namespace

ProcessProbe::~ProcessProbe()
{
    detach();
}

void ProcessProbe::detach()
{
    if (m_fdDir)
        closedir(static_cast<DIR *>(m_fdDir));
    m_fdDir = nullptr;
    m_statFd.reset();
}

bool ProcessProbe::open(pid_t pid, std::string *error)
{
    detach();
    m_pid = pid;
    m_ticksPerSecond = sysconf(_SC_CLK_TCK);
    m_pageSize = sysconf(_SC_PAGESIZE);
    const std::string base = "/proc/" + std::to_string(pid);
    os::UniqueFd dirFd(::open((base + "/fd").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!dirFd || !(m_fdDir = fdopendir(dirFd.get()))) {
        *error = "cannot read " + base + "/fd: " + std::strerror(errno) +
                 (errno == EACCES ? " (watch a process of your own user, or run as root)" : "");
        return false;
    }
    dirFd.release(); // the DIR owns it now
    // Our own fd folder holds at least the one just opened: a size of 0 means this kernel does
    // not count descriptors in stat() (before Linux 6.2).
    struct stat self
    {};
    m_statCounts = stat("/proc/self/fd", &self) == 0 && self.st_size > 0;
    m_listEvery = 1;
    m_sinceListing = 0;
    m_types.clear();
    m_refreshFrom = 0;
    m_statFd.reset(::open((base + "/stat").c_str(), O_RDONLY | O_CLOEXEC));
    if (!m_statFd) {
        *error = "cannot read " + base + "/stat: " + std::strerror(errno);
        detach();
        return false;
    }
    return true;
}

const char *ProcessProbe::typeOf(std::string_view target)
{
    if (startsWith(target, "socket:"))
        return "socket";
    if (startsWith(target, "pipe:"))
        return "pipe";
    if (startsWith(target, "anon_inode:"))
        return "anon_inode";
    if (startsWith(target, "/") && !startsWith(target, "/dev/"))
        return "file";
    return "other";
}

// The folder is read again from its start each time.
template<typename Visit>
bool ProcessProbe::forEachEntry(Visit visit)
{
    auto *dir = static_cast<DIR *>(m_fdDir);
    if (!dir)
        return false;
    rewinddir(dir);
    errno = 0;
    while (const dirent *entry = readdir(dir)) {
        if (entry->d_name[0] != '.') {
            int fd = -1;
            std::from_chars(entry->d_name, entry->d_name + std::strlen(entry->d_name), fd);
            visit(fd, entry->d_name);
        }
        errno = 0;
    }
    return errno == 0;
}

// visit(fd, target) for every descriptor still open when its link is read.
template<typename Visit>
bool ProcessProbe::forEachFd(Visit visit)
{
    char link[4096];
    const int dirFd = m_fdDir ? dirfd(static_cast<DIR *>(m_fdDir)) : -1;
    return forEachEntry([&](int fd, const char *name) {
        const ssize_t n = readlinkat(dirFd, name, link, sizeof link - 1);
        if (n >= 0) // else closed since the folder was read
            visit(fd, std::string_view(link, static_cast<std::size_t>(n)));
    });
}

// Reads the folder with every descriptor's type into `s`; false when it cannot be read.
bool ProcessProbe::listTypes(ProcessSample &s)
{
    // Types of new descriptors are read; known ones keep theirs, a few refreshed per listing.
    m_nextTypes.clear();
    int budget = refreshPerListing;
    int lastRefreshed = -1;
    char link[4096];
    const int dirFd = m_fdDir ? dirfd(static_cast<DIR *>(m_fdDir)) : -1;
    const bool listed = forEachEntry([&](int fd, const char *name) {
        const auto known =
            std::lower_bound(m_types.begin(), m_types.end(), std::pair<int, char>(fd, '\0'));
        char type = known != m_types.end() && known->first == fd ? known->second : '\0';
        if (!type || (fd >= m_refreshFrom && budget > 0)) {
            if (type) {
                --budget;
                lastRefreshed = fd;
            }
            const ssize_t n = readlinkat(dirFd, name, link, sizeof link - 1);
            if (n < 0)
                return; // closed since the folder was read
            type = typeOf(std::string_view(link, static_cast<std::size_t>(n)))[0];
        }
        m_nextTypes.emplace_back(fd, type);
        int &count = type == 's'   ? s.sockets
                     : type == 'f' ? s.files
                     : type == 'p' ? s.pipes
                     : type == 'a' ? s.anonInodes
                                   : s.other;
        ++count;
    });
    m_refreshFrom = budget > 0 ? 0 : lastRefreshed + 1; // wrapped round, or on from here
    std::sort(m_nextTypes.begin(), m_nextTypes.end());  // /proc lists them in order already
    m_types.swap(m_nextTypes);
    s.total = s.sockets + s.files + s.pipes + s.anonInodes + s.other;
    s.byType = listed;
    return listed;
}

ProcessSample ProcessProbe::sample(bool byType)
{
    ProcessSample s;
    s.atMicros = monotonicMicros();
    bool read = false;
    if (!m_statCounts || byType || ++m_sinceListing >= m_listEvery) {
        // Its cost in CPU time: a busy machine that makes the listing wait does not make it
        // dearer.
        const std::int64_t started = threadCpuMicros();
        read = listTypes(s);
        const std::int64_t cost = threadCpuMicros() - started;
        m_sinceListing = 0;
        m_listEvery = int(std::clamp<std::int64_t>(
            (cost + listingBudgetMicros - 1) / listingBudgetMicros, 1, 50));
    } else if (struct stat folder{};
               m_fdDir && fstat(dirfd(static_cast<DIR *>(m_fdDir)), &folder) == 0) {
        s.total = int(folder.st_size);
        read = true;
    }
    char stat[1024];
    const ssize_t n = m_statFd ? pread(m_statFd.get(), stat, sizeof stat - 1, 0) : -1;
    if (!read || n <= 0)
        return ProcessSample::goneAt(s.atMicros);
    stat[n] = '\0';
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so count fields from
    // the last ')'. Field 3 is the state; 14 and 15 utime and stime, 20 the threads, 24 RSS.
    const char *p = std::strrchr(stat, ')');
    // A zombie (Z) or dying (X) process has exited: its figures are gone with it.
    if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
        return ProcessSample::goneAt(s.atMicros);
    long long fields[25] = {};
    int field = 2;
    for (++p; *p && field < 24;) {
        while (*p == ' ')
            ++p;
        ++field;
        const char *end = p;
        while (*end && *end != ' ')
            ++end;
        std::from_chars(p, end, fields[field]);
        p = end;
    }
    if (field < 24)
        return ProcessSample::goneAt(s.atMicros);
    s.alive = true;
    s.userSeconds = double(fields[14]) / double(m_ticksPerSecond);
    s.systemSeconds = double(fields[15]) / double(m_ticksPerSecond);
    s.threads = int(fields[20]);
    s.rssBytes = fields[24] * m_pageSize;
    rlimit limit{};
    if (prlimit(m_pid, RLIMIT_NOFILE, nullptr, &limit) == 0)
        s.fdLimit = limit.rlim_cur == RLIM_INFINITY ? -1 : int(limit.rlim_cur);
    return s;
}

std::vector<OpenFd> ProcessProbe::openFds()
{
    std::vector<OpenFd> fds;
    forEachFd([&](int fd, std::string_view target) {
        fds.push_back({fd, std::string(target), typeOf(target)});
    });
    std::sort(fds.begin(), fds.end(), [](const OpenFd &a, const OpenFd &b) { return a.fd < b.fd; });
    return fds;
}

} // namespace servelab::metrics
