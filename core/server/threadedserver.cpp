// SPDX-License-Identifier: Apache-2.0
#include "threadedserver.h"

#include <algorithm>

namespace servelab::server {

ThreadedServer::ThreadedServer(const ServerOptions &options) : m_options(options) {}

ThreadedServer::~ThreadedServer()
{
    // Subclasses' workers refer to their members: derived destructors call stop() first; this
    // is the last resort for a server that was never started.
    stop();
}

bool ThreadedServer::openRoot(std::string *error)
{
    return m_root.open(m_options.root, error);
}

bool ThreadedServer::start(std::string *error)
{
    std::lock_guard lock(m_lifecycle);
    if (!m_threads.empty()) {
        if (error)
            *error = "the server is already running";
        return false;
    }
    m_workers.clear();
    m_limit = std::make_unique<ConnectionLimit>(-1);
    if (!m_listener.open(m_options.host, m_options.port, m_options.backlog, error))
        return false;
    // Up to the header timeout for the first bytes, as any request head gets (at least 1 s).
    if (m_options.deferAccept &&
        !m_listener.deferAccept(std::max(1, (m_options.headerTimeoutMs + 999) / 1000), error)) {
        m_listener.close();
        return false;
    }
    m_fileCache.reset();
    if (m_options.openFileCacheEntries > 0 && !fileCachePerThread())
        m_fileCache = std::make_unique<OpenFileCache>(
            m_root, std::size_t(m_options.openFileCacheEntries), m_options.openFileCacheValidMs,
            true);
    m_workers = createWorkers();
    for (auto &worker : m_workers) {
        if (!worker->init(error)) {
            m_workers.clear();
            m_listener.close();
            return false;
        }
    }
    // Now that the server's own fds (listener, epoll sets, eventfds, reserve) are open, the
    // automatic limit can count what is left.
    m_limit->setMax(ConnectionLimit::resolve(m_options.maxConnections));
    for (auto &worker : m_workers)
        m_threads.emplace_back([w = worker.get()] { w->run(); });
    for (auto &worker : m_workers) {
        if (!worker->waitReady(error)) {
            for (auto &w : m_workers)
                w->requestStop();
            for (auto &thread : m_threads)
                thread.join();
            m_threads.clear();
            m_workers.clear();
            m_listener.close();
            return false;
        }
    }
    return true;
}

void ThreadedServer::stop()
{
    std::lock_guard lock(m_lifecycle);
    for (auto &worker : m_workers)
        worker->requestStop();
    for (auto &thread : m_threads)
        thread.join();
    m_threads.clear();
    // Keep the workers (and their final counters) until the next start; close the port now.
    m_listener.close();
}

ServerStats ThreadedServer::stats() const
{
    ServerStats total;
    for (const auto &worker : m_workers)
        total += worker->stats();
    total.queued = queuedNow();
    return total;
}

} // namespace servelab::server
