#pragma once

#include "acceptguard.h"
#include "http/documentroot.h"
#include "listener.h"
#include "server.h"
#include "serveroptions.h"

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace servelab::server {

class EpollLoop;

// The `epoll` event model (nginx style): N threads, each with its own epoll instance and
// connections, all watching one listening socket with EPOLLEXCLUSIVE so that a new connection
// wakes one thread, not all of them.
class EpollServer final : public Server
{
public:
    explicit EpollServer(const ServerOptions &options);
    ~EpollServer() override;

    bool openRoot(std::string *error);
    bool start(std::string *error) override;
    void stop() override;
    std::uint16_t port() const override { return m_listener.port(); }
    ServerStats stats() const override;
    int maxConnections() const override { return m_limit ? m_limit->max() : 0; }

private:
    ServerOptions m_options;
    http::DocumentRoot m_root;
    Listener m_listener;
    std::unique_ptr<ConnectionLimit> m_limit;
    std::vector<std::unique_ptr<EpollLoop>> m_loops;
    std::vector<std::thread> m_threads;
    std::mutex m_lifecycle;
};

} // namespace servelab::server
