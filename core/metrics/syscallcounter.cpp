// SPDX-License-Identifier: Apache-2.0
#include "syscallcounter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <linux/perf_event.h>
#include <mutex>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace servelab::metrics {

namespace {

constexpr const char *idFiles[] = {
    "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
    "/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
};

int readId()
{
    for (const char *path : idFiles)
        if (FILE *f = std::fopen(path, "re")) {
            int id = -1;
            if (std::fscanf(f, "%d", &id) != 1)
                id = -1;
            std::fclose(f);
            if (id >= 0)
                return id;
        }
    return -1;
}

} // namespace

int SyscallCounter::tracepointId(std::string *why)
{
    static std::once_flag once;
    static int id = -1;
    static std::string problem;
    std::call_once(once, [] {
        id = readId();
        // tracefs not mounted: mount it where the kernel documents it, as perf does.
        if (id < 0 && mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0)
            id = readId();
        // One event kept open for the process's life: the kernel registers the tracepoint
        // when its first event opens and unregisters it when its last closes, each time
        // waiting for RCU (tens of ms, 27 ms a point measured), which would otherwise fall
        // inside the measured runs.
        if (id >= 0) {
            perf_event_attr attr{};
            attr.size = sizeof attr;
            attr.type = PERF_TYPE_TRACEPOINT;
            attr.config = std::uint64_t(id);
            attr.disabled = 1;
            static const long kept =
                syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
            (void)kept;
        }
        if (id < 0)
            problem = "no raw_syscalls tracepoint (tracefs is not mounted at /sys/kernel/tracing "
                      "and could not be: run as root, or mount -t tracefs nodev "
                      "/sys/kernel/tracing)";
    });
    if (id < 0 && why)
        *why = problem;
    return id;
}

bool SyscallCounter::open(pid_t tid, bool inherit, std::string *why)
{
    const int id = tracepointId(why);
    if (id < 0)
        return false;
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = std::uint64_t(id);
    attr.inherit = inherit ? 1 : 0;
    const long fd = syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        if (error == ESRCH)
            return true; // the thread ended meanwhile: nothing more of it to count
        if (why)
            *why = std::string("perf events not allowed (") + std::strerror(error) +
                   "): run as root or lower kernel.perf_event_paranoid to 1";
        return false;
    }
    m_fds.emplace_back(int(fd));
    return true;
}

bool SyscallCounter::start(const std::vector<pid_t> &tids, std::string *why)
{
    m_fds.clear();
    for (pid_t tid : tids)
        if (!open(tid, true, why)) {
            m_fds.clear();
            return false;
        }
    return true;
}

bool SyscallCounter::startThisThread(std::string *why)
{
    m_fds.clear();
    return open(0, false, why);
}

std::int64_t SyscallCounter::count() const
{
    if (m_fds.empty())
        return -1;
    std::int64_t total = 0;
    for (const auto &fd : m_fds) {
        std::uint64_t value = 0;
        if (read(fd.get(), &value, sizeof value) == ssize_t(sizeof value))
            total += std::int64_t(value);
    }
    return total;
}

} // namespace servelab::metrics
