// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connectionregistry.h"
#include "epollset.h"
#include "threadstate.h"
#include "worker.h"

#include <atomic>
#include <functional>

namespace servelab::server {

// The thread that accepts and watches the idle connections of a model that hands work to other
// threads (poller, multiplex). Every connection is armed EPOLLONESHOT: once it is reported it
// belongs to whoever the handler gives it to (the entry is marked busy) until arm() gives it
// back. Deadlines of the connections it watches are checked here too (events 0).
class ConnectionWatcher final : public Worker
{
public:
    // Called on the watcher's thread with the entry already marked busy. `context` is the
    // watcher's own, for handlers that run the connection right here.
    using Handler =
        std::function<void(ConnectionRegistry::Entry *, unsigned events, LoopContext &context)>;

    ConnectionWatcher(ConnectionRegistry &registry, int listenFd, const ServerShared &shared,
                      Handler handler);
    ConnectionWatcher(const ConnectionWatcher &) = delete;
    ConnectionWatcher &operator=(const ConnectionWatcher &) = delete;
    ~ConnectionWatcher() override;

    bool init(std::string *error) override;
    void run() override;
    void requestStop() override;
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    // From any thread: the entry is no longer busy; report it when readable (or writable).
    void arm(ConnectionRegistry::Entry *entry, bool write);

private:
    void setAccepting(bool on);
    std::int64_t acceptAll(); // returns how long to stop accepting (ms), 0 to go on
    void expire(std::int64_t nowMs);

    ConnectionRegistry &m_registry;
    ConnectionRegistry::Holder m_hold;
    int m_listenFd;
    const ServerOptions &m_options;
    Handler m_handler;
    ThreadState m_state;
    EpollSet m_epoll;
    std::atomic<bool> m_stopping{false};
};

} // namespace servelab::server
