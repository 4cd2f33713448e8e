// SPDX-License-Identifier: Apache-2.0
#include "pollerserver.h"

#include "connection.h"
#include "connectionregistry.h"
#include "connectionwatcher.h"
#include "threadstate.h"

#include "metrics/clock.h"

// Debian's libconcurrentqueue-dev: moodycamel's lock-free MPMC queue and its blocking wrapper
// (Debian 13 moved the headers one folder down).
#if __has_include(<concurrentqueue/moodycamel/blockingconcurrentqueue.h>)
#include <concurrentqueue/moodycamel/blockingconcurrentqueue.h>
#else
#include <concurrentqueue/blockingconcurrentqueue.h>
#endif

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <sys/epoll.h>

namespace servelab::server {

// What the watcher and the pool share: the connections and the queue of ready ones, in one of
// two kinds (ServerOptions::handoff) — the question of seed 004.
class PollerShared
{
public:
    using Entry = ConnectionRegistry::Entry;
    struct Job
    {
        Entry *entry = nullptr;    // null: stop (the lock-free queue's wake-up)
        unsigned events = 0;       // 0: the deadline passed
        std::int64_t queuedAt = 0; // µs, for the time it waited
    };

    PollerShared(ConnectionLimit &limit, Handoff handoff, int workers)
        : registry(limit), m_handoff(handoff), m_workers(workers)
    {}

    void push(Job job)
    {
        job.queuedAt = metrics::monotonicMicros();
        if (m_handoff == Handoff::LockFree) {
            m_lockFree.enqueue(job);
            return;
        }
        {
            std::lock_guard lock(queueMutex);
            queue.push_back(job);
        }
        queueReady.notify_one();
    }
    // Blocks until a job, the stop, or the caller is one of the workers retire() asked for;
    // false for those two.
    bool pop(Job *job)
    {
        if (m_handoff == Handoff::LockFree) {
            m_lockFree.wait_dequeue(*job);
            return job->entry != nullptr;
        }
        std::unique_lock lock(queueMutex);
        queueReady.wait(lock, [&] { return stopping || m_retiring > 0 || !queue.empty(); });
        if (m_retiring > 0) {
            --m_retiring;
            return false;
        }
        if (stopping)
            return false;
        *job = queue.front();
        queue.pop_front();
        return true;
    }
    // `count` workers fewer (the pool shrinks); `workers` is how many there are then.
    void retire(int count, int workers)
    {
        m_workers.store(workers);
        if (m_handoff == Handoff::LockFree) {
            for (int i = 0; i < count; ++i) // the first `count` to take one of these stop
                m_lockFree.enqueue(Job{});
            return;
        }
        {
            std::lock_guard lock(queueMutex);
            m_retiring += count;
        }
        queueReady.notify_all();
    }
    void grown(int workers) { m_workers.store(workers); }
    void stop()
    {
        if (m_handoff == Handoff::LockFree) {
            // One wake-up per worker; each stops at the first it takes.
            if (!m_stopSent.exchange(true))
                for (int i = 0, n = m_workers.load(); i < n; ++i)
                    m_lockFree.enqueue(Job{});
            return;
        }
        {
            std::lock_guard lock(queueMutex);
            stopping = true;
        }
        queueReady.notify_all();
    }
    std::uint64_t size()
    {
        if (m_handoff == Handoff::LockFree)
            return m_lockFree.size_approx();
        std::lock_guard lock(queueMutex);
        return queue.size();
    }

    ConnectionRegistry registry;
    ConnectionWatcher *watcher = nullptr;

private:
    Handoff m_handoff;
    std::atomic<int> m_workers;
    int m_retiring = 0;
    std::mutex queueMutex;
    std::condition_variable queueReady;
    std::deque<Job> queue;
    bool stopping = false;
    moodycamel::BlockingConcurrentQueue<Job> m_lockFree;
    std::atomic<bool> m_stopSent{false};
};

namespace {

class PoolWorker final : public Worker
{
public:
    PoolWorker(std::shared_ptr<PollerShared> shared, const ServerShared &server)
        : m_shared(std::move(shared)), m_hold(m_shared->registry), m_state(server)
    {}
    bool init(std::string *) override { return true; }
    void requestStop() override { m_shared->stop(); }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        PollerShared::Job job{};
        while (m_shared->pop(&job)) {
            const auto waited =
                std::uint64_t(std::max<std::int64_t>(0, metrics::monotonicMicros() - job.queuedAt));
            auto &stats = m_state.stats;
            AtomicServerStats::bump(stats.handoffs);
            AtomicServerStats::bump(stats.handoffWaitMicros, waited);
            if (waited > stats.handoffWaitMaxMicros.load(std::memory_order_relaxed))
                stats.handoffWaitMaxMicros.store(waited, std::memory_order_relaxed);
            Connection &c = *job.entry->connection;
            c.setContext(m_state.context);
            m_state.wake();
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
        m_hold.release();
    }

private:
    std::shared_ptr<PollerShared> m_shared;
    ConnectionRegistry::Holder m_hold; // after m_shared, which owns the registry
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
    return m_shared ? m_shared->size() : 0;
}

std::unique_ptr<Worker> PollerServer::createPoolWorker()
{
    m_shared->grown(++m_poolSize);
    return std::make_unique<PoolWorker>(m_shared, shared());
}

void PollerServer::retirePoolWorkers(int count)
{
    m_poolSize -= count;
    m_shared->retire(count, m_poolSize);
}

std::vector<std::unique_ptr<Worker>> PollerServer::createWorkers()
{
    m_poolSize = m_options.threads;
    m_shared = std::make_shared<PollerShared>(*m_limit, m_options.handoff, m_poolSize);
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
