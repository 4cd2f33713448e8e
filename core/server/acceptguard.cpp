// SPDX-License-Identifier: Apache-2.0
#include "acceptguard.h"

#include "os/uniquefd.h"
#include "serverstats.h"

#include <QLoggingCategory>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcAccept, "servelab.server.accept")

namespace servelab::server {

namespace {
constexpr int acceptBatch = 64;
constexpr std::chrono::milliseconds acceptPause{100};

int openFdCount()
{
    int count = 0;
    if (DIR *dir = opendir("/proc/self/fd")) {
        while (readdir(dir))
            ++count;
        closedir(dir);
        count -= 3; // ".", ".." and the directory's own fd
    }
    return count;
}
} // namespace

int ConnectionLimit::resolve(int requested)
{
    if (requested != 0)
        return requested;
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return -1;
    // What is open now (the server's own fds included) and a little slack; each connection
    // may hold its socket and the file it is sending.
    const long spare = long(limit.rlim_cur) - openFdCount() - 4;
    return static_cast<int>(std::max(1L, spare / 2));
}

ConnectionLimit::~ConnectionLimit() = default;

bool ConnectionLimit::openReserve()
{
    std::lock_guard lock(m_reserveMutex);
    if (!m_reserveFd)
        m_reserveFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    return bool(m_reserveFd);
}

void ConnectionLimit::topUpReserve()
{
    if (!m_reserveMissing.load(std::memory_order_relaxed))
        return; // the usual case, on every closed connection: no lock
    std::unique_lock lock(m_reserveMutex, std::try_to_lock);
    if (lock.owns_lock() && !m_reserveFd) {
        m_reserveFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
        m_reserveMissing.store(!m_reserveFd, std::memory_order_relaxed);
    }
}

int ConnectionLimit::refuseWaiting(int listenFd)
{
    std::lock_guard lock(m_reserveMutex);
    int refused = 0;
    if (m_reserveFd) {
        m_reserveFd.reset();
        for (int i = 0; i < acceptBatch; ++i) {
            const os::UniqueFd refusedFd(accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC));
            if (!refusedFd)
                break; // EAGAIN: the queue is empty (stop here: libuv once looped forever)
            ++refused;
        }
    }
    // Another thread may take the fd we freed first; then a closing connection gives one back.
    m_reserveFd.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    m_reserveMissing.store(!m_reserveFd, std::memory_order_relaxed);
    return refused;
}

bool ConnectionLimit::tryAcquire()
{
    const int most = max();
    if (most < 0) {
        m_open.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    int open = m_open.load(std::memory_order_relaxed);
    while (open < most) {
        if (m_open.compare_exchange_weak(open, open + 1, std::memory_order_relaxed))
            return true;
    }
    return false;
}

bool AcceptGuard::RateLimited::due()
{
    ++count;
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::seconds(1))
        return false;
    last = now;
    return true;
}

AcceptGuard::AcceptGuard(AcceptStrategy strategy, ConnectionLimit &limit, AtomicServerStats &stats)
    : m_strategy(strategy), m_limit(limit), m_stats(stats)
{}

AcceptGuard::~AcceptGuard() = default;

bool AcceptGuard::init()
{
    return m_strategy != AcceptStrategy::ReserveFd || m_limit.openReserve();
}

void AcceptGuard::released()
{
    m_limit.release();
    m_limit.topUpReserve();
}

AcceptGuard::Accepted AcceptGuard::acceptOne(int listenFd, bool tcpNoDelay)
{
    // Refusals are bounded per call so one flood cannot hold a thread here.
    int refusals = 0;
    while (refusals < acceptBatch) {
        const int fd = accept4(listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno == EMFILE || errno == ENFILE)
                return {-1, onExhausted(listenFd)};
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                qCWarning(lcAccept, "accept failed: %s", std::strerror(errno));
            break;
        }
        if (!adopt(fd, tcpNoDelay)) {
            ++refusals;
            continue;
        }
        return {fd, {}};
    }
    return {-1, refusals > 0 ? refusalPause() : std::chrono::milliseconds(0)};
}

std::chrono::milliseconds AcceptGuard::refusalPause()
{
    return acceptPause;
}

bool AcceptGuard::adopt(int fd, bool tcpNoDelay)
{
    if (!admit(fd))
        return false;
    AtomicServerStats::bump(m_stats.connectionsAccepted);
    if (tcpNoDelay) {
        const int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return true;
}

bool AcceptGuard::admit(int fd)
{
    if (m_limit.tryAcquire())
        return true;
    // Refused with a clear close rather than left to time out in the backlog.
    os::UniqueFd(fd).reset();
    AtomicServerStats::bump(m_stats.refused);
    if (m_refusedLog.due()) {
        qCWarning(lcAccept,
                  "connection limit %d reached: %llu connections refused in the last second",
                  m_limit.max(), static_cast<unsigned long long>(m_refusedLog.count));
        m_refusedLog.count = 0;
    }
    return false;
}

std::chrono::milliseconds AcceptGuard::onExhausted(int listenFd)
{
    AtomicServerStats::bump(m_stats.acceptEmfile);
    if (m_emfileLog.due()) {
        qCWarning(lcAccept, "accept: %s (%llu times in the last second, %d connections open)",
                  std::strerror(EMFILE), static_cast<unsigned long long>(m_emfileLog.count),
                  m_limit.open());
        m_emfileLog.count = 0;
    }
    switch (m_strategy) {
    case AcceptStrategy::ReserveFd:
        AtomicServerStats::bump(m_stats.refused, std::uint64_t(m_limit.refuseWaiting(listenFd)));
        // Back off as well: the listening socket is level-triggered and would wake us at once.
        return acceptPause;
    case AcceptStrategy::Backoff: return acceptPause;
    case AcceptStrategy::None: return std::chrono::milliseconds(0);
    }
    return acceptPause;
}

} // namespace servelab::server
