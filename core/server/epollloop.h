#pragma once

#include "connection.h"
#include "loopcontext.h"
#include "serverstats.h"

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
class EpollLoop
{
public:
    EpollLoop(int listenFd, const http::DocumentRoot &root, const ServerOptions &options);
    EpollLoop(const EpollLoop &) = delete;
    EpollLoop &operator=(const EpollLoop &) = delete;
    ~EpollLoop();

    bool init(std::string *error);
    void run();
    void requestStop();
    const AtomicServerStats &stats() const { return m_stats; }

private:
    void acceptAll();
    void onAcceptExhausted();
    void setAcceptEnabled(bool enabled);
    void dispatch(Connection *connection, unsigned events);
    void apply(Connection *connection, Connection::Next next);
    void close(Connection *connection);
    void runYielded();
    void expireTimers();

    int m_listenFd;
    int m_epollFd = -1;
    int m_wakeFd = -1;
    int m_reserveFd = -1;
    std::atomic<bool> m_stopping{false};
    AtomicServerStats m_stats;
    std::unique_ptr<BodyTransfer> m_transfer;
    LoopContext m_context;
    std::unordered_map<Connection *, std::unique_ptr<Connection>> m_connections;
    std::vector<Connection *> m_yielded;
    bool m_tcpNoDelay;
    bool m_acceptEnabled = true;
    std::chrono::steady_clock::time_point m_acceptResume;
    std::chrono::steady_clock::time_point m_lastEmfileLog;
    std::uint64_t m_emfileSinceLog = 0;
    std::int64_t m_nextTimerScanMs = 0;
};

} // namespace servelab::server
