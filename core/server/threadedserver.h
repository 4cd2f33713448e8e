// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acceptguard.h"
#include "http/documentroot.h"
#include "listener.h"
#include "openfilecache.h"
#include "server.h"
#include "serveroptions.h"
#include "threadstate.h"
#include "worker.h"

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace servelab::server {

// The life cycle every built-in model shares: the root, the listening socket, the connection
// limit, and one thread per Worker that the model creates. stop() joins them all.
class ThreadedServer : public Server
{
public:
    explicit ThreadedServer(const ServerOptions &options);
    ~ThreadedServer() override;

    bool openRoot(std::string *error);
    bool start(std::string *error) override;
    void stop() override;
    std::uint16_t port() const override { return m_listener.port(); }
    ServerStats stats() const override;
    int maxConnections() const override { return m_limit ? m_limit->max() : 0; }

protected:
    virtual std::vector<std::unique_ptr<Worker>> createWorkers() = 0;
    // Connections waiting for a worker right now (a gauge for the live counters).
    virtual std::uint64_t queuedNow() const { return 0; }
    // Whether each thread keeps its own open-file cache (no lock) rather than all sharing one:
    // the event loops, a few threads each serving many connections, as nginx's workers.
    virtual bool fileCachePerThread() const { return false; }
    ServerShared shared()
    {
        return {m_root, m_options, *m_limit, m_fileCache.get(), fileCachePerThread()};
    }

    const ServerOptions m_options;
    http::DocumentRoot m_root;
    Listener m_listener;
    std::unique_ptr<ConnectionLimit> m_limit;
    std::unique_ptr<OpenFileCache> m_fileCache;

private:
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<std::thread> m_threads;
    std::mutex m_lifecycle;
};

} // namespace servelab::server
