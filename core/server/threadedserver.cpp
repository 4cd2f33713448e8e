// SPDX-License-Identifier: Apache-2.0
#include "threadedserver.h"

#include "eventmodel.h"
#include "os/threadname.h"
#include "tls/selfsignedpair.h"

#include <algorithm>

namespace servelab::server {

ThreadedServer::ThreadedServer(const ServerOptions &options) : m_options(options), m_live(options)
{}

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

bool ThreadedServer::openTls(const std::string &transfer, std::string *error)
{
    if (m_options.tls.empty())
        return true;
    tls::TlsServerContext::Settings settings;
    std::string why;
    if (m_options.tls == "self-signed" || m_options.tls == "self-signed-rsa") {
        const auto key = m_options.tls == "self-signed" ? tls::SelfSignedPair::Key::EcdsaP256
                                                        : tls::SelfSignedPair::Key::Rsa2048;
        if (!tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(), key,
                                         &settings.certificate, &settings.privateKey, &why)) {
            if (error)
                *error = "cannot make the self-signed certificate: " + why;
            return false;
        }
    } else {
        const auto comma = m_options.tls.find(',');
        if (comma == std::string::npos || comma == 0 || comma + 1 == m_options.tls.size()) {
            if (error)
                *error = "--tls wants self-signed, self-signed-rsa or CERT.pem,KEY.pem, not '" +
                         m_options.tls + "'";
            return false;
        }
        settings.certificate = m_options.tls.substr(0, comma);
        settings.privateKey = m_options.tls.substr(comma + 1);
    }
    settings.protocols = {m_options.tlsVersions, m_options.tlsCiphers, m_options.tlsGroups};
    settings.kernelTls = transfer == "sendfile";
    settings.http2 = m_options.http2;
    if (settings.kernelTls) {
        if (const std::string missing = tls::TlsServerContext::kernelTlsMissing();
            !missing.empty()) {
            if (error)
                *error = "sendfile over https needs kernel TLS (SSL_sendfile), and " + missing +
                         ": serve copy or mmap over https here";
            return false;
        }
    }
    m_tls = tls::TlsServerContext::create(settings, &why);
    if (!m_tls) {
        if (error)
            *error = why;
        return false;
    }
    return true;
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
    m_finished.clear();
    m_live.set(m_options);
    m_limit = std::make_unique<ConnectionLimit>(-1);
    if (!m_listener.open(m_options.host, m_options.port, m_options.backlog, error))
        return false;
    // Up to the header timeout for the first bytes, as any request head gets (at least 1 s).
    if (m_options.deferAccept &&
        !m_listener.deferAccept(std::max(1, (m_options.headerTimeoutMs + 999) / 1000), error)) {
        m_listener.stop();
        return false;
    }
    m_fileCache.reset();
    if (m_options.openFileCacheEntries > 0 && !fileCachePerThread())
        m_fileCache =
            std::make_unique<OpenFileCache>(m_root, std::size_t(m_options.openFileCacheEntries),
                                            m_options.openFileCacheValidMs, true);
    m_workers = createWorkers();
    for (auto &worker : m_workers) {
        if (!worker->init(error)) {
            m_workers.clear();
            m_listener.stop();
            return false;
        }
    }
    // Now that the server's own fds (listener, epoll sets, eventfds, reserve) are open, the
    // automatic limit can count what is left.
    m_limit->setMax(ConnectionLimit::resolve(m_options.maxConnections));
    for (auto &worker : m_workers)
        launch(worker.get());
    for (auto &worker : m_workers) {
        if (!worker->waitReady(error)) {
            for (auto &w : m_workers)
                w->requestStop();
            for (auto &thread : m_threads)
                thread.join();
            m_threads.clear();
            m_finished.clear();
            m_workers.clear();
            m_listener.stop();
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
        if (thread.joinable()) // those a shrinking pool retired may be joined already
            thread.join();
    m_threads.clear();
    m_finished.clear();
    // Keep the workers (and their final counters) until the next start; close the port now.
    m_listener.stop();
}

void ThreadedServer::launch(Worker *worker)
{
    m_finished.push_back(std::make_unique<std::atomic<bool>>(false));
    m_threads.emplace_back([worker, finished = m_finished.back().get()] {
        const os::ThreadName name(os::ThreadName::server);
        worker->run();
        finished->store(true, std::memory_order_release);
    });
}

bool ThreadedServer::tune(const ServerOptions &next, std::string *error)
{
    std::lock_guard lock(m_lifecycle);
    if (m_threads.empty()) {
        *error = "the server is not running";
        return false;
    }
    const ServerOptions now = m_live.snapshot();
    if ((now.openFileCacheEntries > 0) != (next.openFileCacheEntries > 0)) {
        *error = "--open-file-cache turns on or off only as the server starts; restart it with "
                 "--open-file-cache " +
                 std::to_string(next.openFileCacheEntries) + " (a size can change live)";
        return false;
    }
    if (next.threads != now.threads && !resizePool(next.threads, error))
        return false;
    if (next.maxConnections != now.maxConnections)
        m_limit->setMax(ConnectionLimit::resolve(next.maxConnections));
    if (m_fileCache)
        m_fileCache->retune(std::size_t(next.openFileCacheEntries), next.openFileCacheValidMs);
    tuned(next);
    m_live.set(next);
    return true;
}

bool ThreadedServer::resizePool(int threads, std::string *error)
{
    if (!poolResizable(m_options.mode)) {
        *error = threadsFixedReason(m_options.mode) + "; restart it with --threads " +
                 std::to_string(threads);
        return false;
    }
    // The threads retired before, which returned from run() since: joined now, at once.
    for (std::size_t i = 0; i < m_threads.size(); ++i)
        if (m_threads[i].joinable() && m_finished[i]->load(std::memory_order_acquire))
            m_threads[i].join();
    const int now = m_live.snapshot().threads;
    if (threads < now) {
        retirePoolWorkers(now - threads);
        return true;
    }
    for (int i = now; i < threads; ++i) {
        auto worker = createPoolWorker();
        if (!worker->init(error))
            return false;
        m_workers.push_back(std::move(worker));
        launch(m_workers.back().get());
    }
    return true;
}

ServerStats ThreadedServer::stats() const
{
    std::lock_guard lock(m_lifecycle); // tune() may be adding workers
    ServerStats total;
    for (const auto &worker : m_workers)
        total += worker->stats();
    total.queued = queuedNow();
    return total;
}

} // namespace servelab::server
