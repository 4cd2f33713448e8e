// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection.h"
#include "epollset.h"
#include "threadstate.h"
#include "worker.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace servelab::server {

struct ServerOptions;

// One thread of the epoll model. Connections are edge-triggered; the listening socket is
// level-triggered and shared. Stop is an atomic flag plus an eventfd that wakes epoll_wait.
class EpollLoop final : public Worker
{
public:
    EpollLoop(int listenFd, const ServerShared &shared);
    EpollLoop(const EpollLoop &) = delete;
    EpollLoop &operator=(const EpollLoop &) = delete;
    ~EpollLoop() override;

    bool init(std::string *error) override;
    void run() override;
    void requestStop() override;
    ServerStats stats() const override { return m_state.stats.snapshot(); }

private:
    void acceptAll();
    void setAcceptEnabled(bool enabled);
    void dispatch(Connection *connection, unsigned events);
    void apply(Connection *connection, Connection::Next next);
    void drop(Connection *connection);
    void runYielded();
    void expireTimers();

    int m_listenFd;
    EpollSet m_epoll;
    std::atomic<bool> m_stopping{false};
    ThreadState m_state;
    std::unordered_map<Connection *, std::unique_ptr<Connection>> m_connections;
    std::vector<Connection *> m_yielded;
    bool m_tcpNoDelay;
    bool m_acceptEnabled = true;
    std::chrono::steady_clock::time_point m_acceptResume;
    std::int64_t m_nextTimerScanMs = 0;
};

} // namespace servelab::server
