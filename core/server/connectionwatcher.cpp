// SPDX-License-Identifier: Apache-2.0
#include "connectionwatcher.h"

#include <cerrno>
#include <cstring>
#include <sys/epoll.h>
#include <unistd.h>

namespace servelab::server {

namespace {
constexpr int acceptBatch = 64;
} // namespace

ConnectionWatcher::ConnectionWatcher(ConnectionRegistry &registry, int listenFd,
                                     const ServerShared &shared, Handler handler)
    : m_registry(registry), m_hold(registry), m_listenFd(listenFd), m_options(shared.options),
      m_handler(std::move(handler)), m_state(shared)
{}

ConnectionWatcher::~ConnectionWatcher() = default;

bool ConnectionWatcher::init(std::string *error)
{
    if (!m_epoll.open(m_listenFd, EPOLLIN) || !m_state.acceptGuard.init()) {
        if (error)
            *error = std::string("cannot set up the connection watcher: ") + std::strerror(errno);
        return false;
    }
    return true;
}

void ConnectionWatcher::requestStop()
{
    m_stopping.store(true);
    m_epoll.wake();
}

void ConnectionWatcher::arm(ConnectionRegistry::Entry *entry, bool write)
{
    m_registry.handBack(entry, [this, write](ConnectionRegistry::Entry *e) {
        epoll_event event{};
        event.events = (write ? EPOLLOUT : EPOLLIN) | EPOLLRDHUP | EPOLLONESHOT;
        event.data.ptr = e;
        epoll_ctl(m_epoll.fd(), e->detached ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, e->connection->fd(),
                  &event);
        e->detached = false;
    });
}

void ConnectionWatcher::run()
{
    epoll_event events[256];
    std::int64_t nextScan = monotonicMs() + deadlineScanMs;
    std::int64_t acceptResume = 0;
    while (!m_stopping.load()) {
        std::int64_t now = monotonicMs();
        if (acceptResume && now >= acceptResume) {
            setAccepting(true);
            acceptResume = 0;
        }
        const std::int64_t wake = acceptResume ? std::min(nextScan, acceptResume) : nextScan;
        const int n = epoll_wait(m_epoll.fd(), events, 256,
                                 static_cast<int>(std::max<std::int64_t>(wake - now, 0)));
        m_state.wake();
        for (int i = 0; i < n && !m_stopping.load(); ++i) {
            void *tag = events[i].data.ptr;
            if (tag == EpollSet::listenTag()) {
                if (const auto pause = acceptAll(); pause > 0) {
                    setAccepting(false);
                    acceptResume = monotonicMs() + pause;
                }
            } else if (tag != EpollSet::wakeTag()) {
                auto *entry = static_cast<ConnectionRegistry::Entry *>(tag);
                if (!entry->busy.exchange(true))
                    m_handler(entry, events[i].events, m_state.context);
            }
        }
        now = monotonicMs();
        if (now >= nextScan) {
            expire(now);
            nextScan = now + deadlineScanMs;
        }
    }
    m_hold.release();
}

void ConnectionWatcher::setAccepting(bool on)
{
    epoll_event listen{};
    listen.events = on ? unsigned(EPOLLIN) : 0u;
    listen.data.ptr = EpollSet::listenTag();
    epoll_ctl(m_epoll.fd(), EPOLL_CTL_MOD, m_listenFd, &listen);
}

std::int64_t ConnectionWatcher::acceptAll()
{
    for (int i = 0; i < acceptBatch; ++i) {
        const auto accepted = m_state.acceptGuard.acceptOne(m_listenFd, m_options.tcpNoDelay);
        if (accepted.fd < 0)
            return accepted.pause.count();
        m_state.wake();
        auto *entry = m_registry.add(std::make_unique<Connection>(accepted.fd, m_state.context));
        epoll_event event{};
        event.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
        event.data.ptr = entry;
        if (epoll_ctl(m_epoll.fd(), EPOLL_CTL_ADD, accepted.fd, &event) != 0)
            m_registry.remove(entry);
    }
    return 0;
}

// Connections whose deadline passed while they waited here go to the handler, once.
void ConnectionWatcher::expire(std::int64_t nowMs)
{
    m_state.context.nowMs = nowMs;
    for (auto *entry : m_registry.due(nowMs)) {
        if (entry->busy.exchange(true))
            continue;
        // Out of the set, not merely masked: a masked fd still reports EPOLLHUP and EPOLLERR,
        // and such a report could reach this thread after the holder freed the entry.
        epoll_ctl(m_epoll.fd(), EPOLL_CTL_DEL, entry->connection->fd(), nullptr);
        entry->detached = true;
        m_handler(entry, 0, m_state.context);
    }
}

} // namespace servelab::server
