// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acceptguard.h"
#include "http/documentroot.h"
#include "listener.h"
#include "liveoptions.h"
#include "openfilecache.h"
#include "server.h"
#include "serveroptions.h"
#include "threadstate.h"
#include "tls/tlsservercontext.h"
#include "worker.h"

#include <atomic>
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
    // https (ServerOptions::tls): the certificate, made first if it is the self-signed one,
    // and the TLS context, with kernel TLS when `transfer` is sendfile. Nothing for plain HTTP.
    bool openTls(const std::string &transfer, std::string *error);
    bool start(std::string *error) override;
    void stop() override;
    std::uint16_t port() const override { return m_listener.port(); }
    ServerStats stats() const override;
    int maxConnections() const override { return m_limit ? m_limit->max() : 0; }
    ServerOptions options() const override { return m_live.snapshot(); }
    bool tune(const ServerOptions &next, std::string *error) override;

protected:
    virtual std::vector<std::unique_ptr<Worker>> createWorkers() = 0;
    // Connections waiting for a worker right now (a gauge for the live counters).
    virtual std::uint64_t queuedNow() const { return 0; }
    // Whether each thread keeps its own open-file cache (no lock) rather than all sharing one:
    // the event loops, a few threads each serving many connections, as nginx's workers.
    virtual bool fileCachePerThread() const { return false; }
    // A model whose pool can grow and shrink while it serves (its EventModel row's
    // resizablePool): one more pool thread's worker, and a way to make `count` of them return
    // from run() once they are free.
    virtual std::unique_ptr<Worker> createPoolWorker() { return nullptr; }
    virtual void retirePoolWorkers(int /*count*/) {}
    // The options tuned: what the model keeps outside the threads (multiplex's max downloads).
    virtual void tuned(const ServerOptions & /*next*/) {}
    ServerShared shared()
    {
        return {m_root,     m_options, m_live, *m_limit, m_fileCache.get(), fileCachePerThread(),
                m_tls.get()};
    }

    const ServerOptions m_options; // as started
    LiveOptions m_live;            // as tuned since
    http::DocumentRoot m_root;
    Listener m_listener;
    std::unique_ptr<ConnectionLimit> m_limit;
    std::unique_ptr<OpenFileCache> m_fileCache;
    std::unique_ptr<tls::TlsServerContext> m_tls;

private:
    void launch(Worker *worker);
    bool resizePool(int threads, std::string *error);

    // Every worker since start(), retired ones too (their counters stay in stats()), each with
    // its thread and whether run() returned.
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<std::thread> m_threads;
    std::vector<std::unique_ptr<std::atomic<bool>>> m_finished;
    mutable std::mutex m_lifecycle; // start, stop, tune; stats() reads m_workers under it
};

} // namespace servelab::server
