#include "epollserver.h"

#include "epollloop.h"

namespace servelab::server {

EpollServer::EpollServer(const ServerOptions &options) : m_options(options) {}

EpollServer::~EpollServer()
{
    stop();
}

bool EpollServer::openRoot(std::string *error)
{
    return m_root.open(m_options.root, error);
}

bool EpollServer::start(std::string *error)
{
    std::lock_guard lock(m_lifecycle);
    if (!m_threads.empty()) {
        if (error)
            *error = "the server is already running";
        return false;
    }
    m_loops.clear();
    m_limit = std::make_unique<ConnectionLimit>(
        ConnectionLimit::resolve(m_options.maxConnections, m_options.threads));
    if (!m_listener.open(m_options.host, m_options.port, m_options.backlog, error))
        return false;
    for (int i = 0; i < m_options.threads; ++i) {
        auto loop = std::make_unique<EpollLoop>(m_listener.fd(), m_root, m_options, *m_limit);
        if (!loop->init(error)) {
            m_loops.clear();
            m_listener.close();
            return false;
        }
        m_loops.push_back(std::move(loop));
    }
    for (auto &loop : m_loops)
        m_threads.emplace_back([l = loop.get()] { l->run(); });
    return true;
}

void EpollServer::stop()
{
    std::lock_guard lock(m_lifecycle);
    for (auto &loop : m_loops)
        loop->requestStop();
    for (auto &thread : m_threads)
        thread.join();
    m_threads.clear();
    // Keep the loops (and their final counters) until the next start; close the port now.
    m_listener.close();
}

ServerStats EpollServer::stats() const
{
    ServerStats total;
    for (const auto &loop : m_loops)
        total += loop->stats().snapshot();
    return total;
}

} // namespace servelab::server
