// SPDX-License-Identifier: Apache-2.0
#include "epollloop.h"

#include "bodytransfer.h"
#include "connection.h"
#include "serveroptions.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcEpoll, "servelab.server.epoll")

namespace servelab::server {

EpollLoop::EpollLoop(int listenFd, const ServerShared &shared)
    : m_listenFd(listenFd), m_state(shared), m_tcpNoDelay(shared.options.tcpNoDelay)
{}

EpollLoop::~EpollLoop()
{
    m_connections.clear();
}

bool EpollLoop::init(std::string *error)
{
    if (!m_epoll.open(m_listenFd, EPOLLIN | EPOLLEXCLUSIVE) || !m_state.acceptGuard.init()) {
        if (error)
            *error = std::string("cannot set up epoll: ") + std::strerror(errno);
        return false;
    }
    return true;
}

void EpollLoop::requestStop()
{
    m_stopping.store(true, std::memory_order_release);
    m_epoll.wake();
}

void EpollLoop::run()
{
    epoll_event events[256];
    while (!m_stopping.load(std::memory_order_acquire)) {
        m_state.wake();
        int timeout = -1;
        if (!m_connections.empty())
            timeout = static_cast<int>(std::clamp<std::int64_t>(
                m_nextTimerScanMs - m_state.context.nowMs, 0, deadlineScanMs));
        if (!m_yielded.empty()) {
            timeout = 0;
        } else if (!m_acceptEnabled) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                m_acceptResume - std::chrono::steady_clock::now());
            const int pause = static_cast<int>(std::max<std::int64_t>(left.count(), 0));
            timeout = timeout < 0 ? pause : std::min(timeout, pause);
        }
        const int n = epoll_wait(m_epoll.fd(), events, std::size(events), timeout);
        if (n < 0 && errno != EINTR) {
            qCCritical(lcEpoll, "epoll_wait failed: %s", std::strerror(errno));
            break;
        }
        m_state.wake();
        for (int i = 0; i < n; ++i) {
            void *tag = events[i].data.ptr;
            if (tag == EpollSet::listenTag()) {
                acceptAll();
            } else if (tag == EpollSet::wakeTag()) {
                m_epoll.drainWake();
            } else {
                dispatch(static_cast<Connection *>(tag), events[i].events);
            }
        }
        if (!m_acceptEnabled && std::chrono::steady_clock::now() >= m_acceptResume)
            setAcceptEnabled(true);
        runYielded();
        if (m_state.context.nowMs >= m_nextTimerScanMs) {
            expireTimers();
            m_nextTimerScanMs = m_state.context.nowMs + deadlineScanMs;
        }
    }
    m_yielded.clear();
    for (std::size_t i = 0; i < m_connections.size(); ++i)
        m_state.acceptGuard.released();
    m_connections.clear();
}

// One connection per readiness of the listening socket (nginx's multi_accept off). It is
// level-triggered, so a backlog that holds more is reported again by the next epoll_wait;
// accepting on to EAGAIN instead costs a failed accept4() per connection when they come one
// at a time — the seeds' ab -c 1, where it was 5 % of the server's syscalls.
void EpollLoop::acceptAll()
{
    const auto accepted = m_state.acceptGuard.acceptOne(m_listenFd, m_tcpNoDelay);
    if (accepted.pause.count() > 0) {
        setAcceptEnabled(false);
        m_acceptResume = std::chrono::steady_clock::now() + accepted.pause;
    }
    if (accepted.fd < 0)
        return;
    const int fd = accepted.fd;
    auto connection = std::make_unique<Connection>(fd, m_state.context);
    epoll_event event{};
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.ptr = connection.get();
    if (epoll_ctl(m_epoll.fd(), EPOLL_CTL_ADD, fd, &event) != 0) {
        qCWarning(lcEpoll, "cannot watch a connection: %s", std::strerror(errno));
        m_state.acceptGuard.released();
        return; // the unique_ptr closes it (and counts it closed)
    }
    m_connections.emplace(connection.get(), std::move(connection));
}

void EpollLoop::setAcceptEnabled(bool enabled)
{
    epoll_event listen{};
    listen.events = enabled ? (EPOLLIN | EPOLLEXCLUSIVE) : 0;
    listen.data.ptr = EpollSet::listenTag();
    // EPOLLEXCLUSIVE cannot be modified (EINVAL), so remove and add instead.
    epoll_ctl(m_epoll.fd(), EPOLL_CTL_DEL, m_listenFd, nullptr);
    if (enabled)
        epoll_ctl(m_epoll.fd(), EPOLL_CTL_ADD, m_listenFd, &listen);
    m_acceptEnabled = enabled;
}

void EpollLoop::dispatch(Connection *connection, unsigned events)
{
    if (std::find(m_yielded.begin(), m_yielded.end(), connection) != m_yielded.end())
        return; // already runnable; it will be served in turn
    Connection::Next next;
    if (connection->writing())
        next = (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) ? connection->onWritable()
                                                           : Connection::Next::Write;
    else
        next = connection->onReadable((events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
    apply(connection, next);
}

void EpollLoop::apply(Connection *connection, Connection::Next next)
{
    switch (next) {
    case Connection::Next::Close: drop(connection); break;
    case Connection::Next::Yield: m_yielded.push_back(connection); break;
    case Connection::Next::Read:
    case Connection::Next::Write: break; // edge-triggered: the registration already covers both
    }
}

void EpollLoop::drop(Connection *connection)
{
    std::erase(m_yielded, connection);
    m_connections.erase(connection); // closing the fd also removes it from the epoll set
    m_state.acceptGuard.released();
}

void EpollLoop::expireTimers()
{
    std::vector<Connection *> expired;
    for (const auto &[connection, owned] : m_connections)
        if (connection->deadlineMs() <= m_state.context.nowMs)
            expired.push_back(connection);
    for (Connection *connection : expired)
        apply(connection, connection->onTimer());
}

void EpollLoop::runYielded()
{
    auto runnable = std::move(m_yielded);
    m_yielded.clear();
    for (Connection *connection : runnable)
        apply(connection, connection->onWritable());
}

} // namespace servelab::server
