// SPDX-License-Identifier: Apache-2.0
#include "multiplexserver.h"

#include "connection.h"
#include "connectionregistry.h"
#include "connectionwatcher.h"
#include "downloadscheduler.h"
#include "threadstate.h"

#include <algorithm>
#include <poll.h>
#include <sys/epoll.h>

namespace servelab::server {

class MultiplexShared
{
public:
    using Entry = ConnectionRegistry::Entry;

    MultiplexShared(ConnectionLimit &limit, std::size_t maxDownloads)
        : registry(limit), downloads(maxDownloads)
    {}

    // Where a connection goes after the thread holding it ran it. `download`: it was one of
    // the scheduler's (its slot is released unless it is still writing).
    void route(Entry *entry, Connection::Next next, bool download)
    {
        const bool writing = entry->connection->writing();
        if (download && !(writing && next != Connection::Next::Close))
            downloads.finish();
        switch (next) {
        case Connection::Next::Close: registry.remove(entry); return;
        case Connection::Next::Read: watcher->arm(entry, false); return;
        case Connection::Next::Write:
        case Connection::Next::Yield: // a response is being written: a download
            if (download)
                downloads.putBack(entry);
            else
                downloads.add(entry);
            return;
        }
    }

    ConnectionRegistry registry;
    DownloadScheduler<Entry> downloads;
    ConnectionWatcher *watcher = nullptr;
};

namespace {

constexpr int stopCheckMs = 100;

// One of the T writer threads.
class DownloadWriter final : public Worker
{
public:
    DownloadWriter(std::shared_ptr<MultiplexShared> shared, const ServerShared &server)
        : m_shared(std::move(shared)), m_hold(m_shared->registry), m_state(server)
    {
        m_state.context.deferBodies = true;
    }
    bool init(std::string *) override { return true; }
    void requestStop() override
    {
        m_stopping.store(true);
        m_shared->downloads.stop();
    }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        MultiplexShared::Entry *entry = nullptr;
        while (m_shared->downloads.take(&entry)) {
            Connection &c = *entry->connection;
            c.setContext(m_state.context);
            m_state.wake();
            Connection::Next next = c.onWritable();
            // Blocking, as EqualBlocking's writers: a full socket holds this thread (not the
            // others) until the peer reads, the send deadline passes, or the server stops.
            if (next == Connection::Next::Write && c.writing() && !waitWritable(c))
                next = Connection::Next::Close;
            m_shared->route(entry, next, true);
        }
        m_hold.release();
    }

private:
    bool waitWritable(Connection &c)
    {
        pollfd p{c.fd(), POLLOUT, 0};
        while (!m_stopping.load()) {
            m_state.wake();
            const auto left = c.deadlineMs() - m_state.context.nowMs;
            if (left <= 0)
                return c.onTimer() != Connection::Next::Close;
            const int n =
                ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, stopCheckMs)));
            if (n > 0)
                return (p.revents & (POLLERR | POLLNVAL)) == 0;
        }
        return false;
    }

    std::shared_ptr<MultiplexShared> m_shared;
    ConnectionRegistry::Holder m_hold; // after m_shared, which owns the registry
    ThreadState m_state;
    std::atomic<bool> m_stopping{false};
};

} // namespace

MultiplexServer::MultiplexServer(const ServerOptions &options) : ThreadedServer(options) {}

MultiplexServer::~MultiplexServer()
{
    stop();
}

std::uint64_t MultiplexServer::queuedNow() const
{
    return m_shared ? m_shared->downloads.waiting() : 0;
}

std::unique_ptr<Worker> MultiplexServer::createPoolWorker()
{
    return std::make_unique<DownloadWriter>(m_shared, shared());
}

void MultiplexServer::retirePoolWorkers(int count)
{
    m_shared->downloads.retire(std::size_t(count));
}

void MultiplexServer::tuned(const ServerOptions &next)
{
    m_shared->downloads.setMaxActive(std::size_t(std::max(next.maxDownloads, 1)));
}

std::vector<std::unique_ptr<Worker>> MultiplexServer::createWorkers()
{
    m_shared = std::make_shared<MultiplexShared>(
        *m_limit, static_cast<std::size_t>(std::max(m_options.maxDownloads, 1)));
    // The watcher reads requests itself and hands each download to the scheduler.
    auto watcher = std::make_unique<ConnectionWatcher>(
        m_shared->registry, m_listener.fd(), shared(),
        [shared = m_shared.get()](MultiplexShared::Entry *entry, unsigned events,
                                  LoopContext &context) {
            Connection &c = *entry->connection;
            c.setContext(context);
            context.deferBodies = true;
            Connection::Next next;
            if (events == 0)
                next = c.onTimer();
            else if (c.writing())
                next = c.onWritable();
            else
                next = c.onReadable((events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
            shared->route(entry, next, false);
        });
    m_shared->watcher = watcher.get();
    std::vector<std::unique_ptr<Worker>> workers;
    workers.push_back(std::move(watcher));
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(createPoolWorker());
    return workers;
}

} // namespace servelab::server
