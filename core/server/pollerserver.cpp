#include "pollerserver.h"

#include "connection.h"
#include "connectionregistry.h"
#include "connectionwatcher.h"
#include "threadstate.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <sys/epoll.h>

namespace servelab::server {

// What the watcher and the pool share: the connections and the queue of ready ones.
class PollerShared
{
public:
    using Entry = ConnectionRegistry::Entry;
    struct Job
    {
        Entry *entry;
        unsigned events; // 0: the deadline passed
    };

    explicit PollerShared(ConnectionLimit &limit) : registry(limit) {}

    void push(Job job)
    {
        {
            std::lock_guard lock(queueMutex);
            queue.push_back(job);
        }
        queueReady.notify_one();
    }
    // Blocks until a job or the stop; false on stop.
    bool pop(Job *job)
    {
        std::unique_lock lock(queueMutex);
        queueReady.wait(lock, [&] { return stopping || !queue.empty(); });
        if (stopping)
            return false;
        *job = queue.front();
        queue.pop_front();
        return true;
    }
    void stop()
    {
        {
            std::lock_guard lock(queueMutex);
            stopping = true;
        }
        queueReady.notify_all();
    }

    ConnectionRegistry registry;
    ConnectionWatcher *watcher = nullptr;
    std::mutex queueMutex;
    std::condition_variable queueReady;
    std::deque<Job> queue;
    bool stopping = false;
};

namespace {

class PoolWorker final : public Worker
{
public:
    PoolWorker(std::shared_ptr<PollerShared> shared, const ServerShared &server)
        : m_shared(std::move(shared)), m_state(server)
    {}
    bool init(std::string *) override { return true; }
    void requestStop() override { m_shared->stop(); }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        m_shared->registry.enter();
        PollerShared::Job job{};
        while (m_shared->pop(&job)) {
            Connection &c = *job.entry->connection;
            c.setContext(m_state.context);
            m_state.context.nowMs = monotonicMs();
            Connection::Next next;
            if (job.events == 0)
                next = c.onTimer();
            else if (c.writing())
                next = c.onWritable();
            else
                next = c.onReadable((job.events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0);
            switch (next) {
            case Connection::Next::Close: m_shared->registry.remove(job.entry); break;
            case Connection::Next::Yield: m_shared->push({job.entry, EPOLLOUT}); break;
            case Connection::Next::Read: m_shared->watcher->arm(job.entry, false); break;
            case Connection::Next::Write: m_shared->watcher->arm(job.entry, true); break;
            }
        }
        m_shared->registry.leave();
    }

private:
    std::shared_ptr<PollerShared> m_shared;
    ThreadState m_state;
};

} // namespace

PollerServer::PollerServer(const ServerOptions &options) : ThreadedServer(options) {}

PollerServer::~PollerServer()
{
    stop();
}

std::uint64_t PollerServer::queuedNow() const
{
    if (!m_shared)
        return 0;
    std::lock_guard lock(m_shared->queueMutex);
    return m_shared->queue.size();
}

std::vector<std::unique_ptr<Worker>> PollerServer::createWorkers()
{
    m_shared = std::make_shared<PollerShared>(*m_limit);
    auto watcher = std::make_unique<ConnectionWatcher>(
        m_shared->registry, m_listener.fd(), shared(),
        [shared = m_shared.get()](ConnectionRegistry::Entry *entry, unsigned events,
                                  LoopContext &) {
            shared->push({entry, events});
        });
    m_shared->watcher = watcher.get();
    std::vector<std::unique_ptr<Worker>> workers;
    workers.push_back(std::move(watcher));
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<PoolWorker>(m_shared, shared()));
    return workers;
}

} // namespace servelab::server
