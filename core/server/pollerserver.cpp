#include "pollerserver.h"

#include "connection.h"
#include "threadstate.h"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <unordered_map>

namespace servelab::server {

namespace {
char listenTag;
char wakeTag;
constexpr int acceptBatch = 64;
} // namespace

// What the poller and the pool share: the epoll set, the registry of connections, the queue.
class PollerShared
{
public:
    struct Entry
    {
        std::unique_ptr<Connection> connection;
        std::atomic<bool> queued{false}; // in the queue or in a worker: the poller keeps off
    };
    struct Job
    {
        Entry *entry;
        unsigned events; // 0: the deadline passed
    };

    explicit PollerShared(ConnectionLimit &limit) : limit(limit) {}
    ~PollerShared()
    {
        for (int fd : {epollFd, wakeFd})
            if (fd >= 0)
                ::close(fd);
    }

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
        queueReady.wait(lock, [&] { return stopping.load() || !queue.empty(); });
        if (stopping.load())
            return false;
        *job = queue.front();
        queue.pop_front();
        return true;
    }
    void arm(Entry *entry, bool write)
    {
        entry->queued.store(false);
        epoll_event event{};
        event.events = (write ? EPOLLOUT : EPOLLIN) | EPOLLRDHUP | EPOLLONESHOT;
        event.data.ptr = entry;
        epoll_ctl(epollFd, EPOLL_CTL_MOD, entry->connection->fd(), &event);
    }
    void remove(Entry *entry)
    {
        std::lock_guard lock(registryMutex);
        registry.erase(entry); // the Connection's destructor closes the fd
        limit.release();
    }
    // The last of the poller and the pool to leave closes every connection left.
    void leave()
    {
        if (running.fetch_sub(1) == 1) {
            std::lock_guard lock(registryMutex);
            for (std::size_t i = 0; i < registry.size(); ++i)
                limit.release();
            registry.clear();
        }
    }

    ConnectionLimit &limit;
    int epollFd = -1;
    int wakeFd = -1;
    std::atomic<bool> stopping{false};
    std::atomic<int> running{0};
    std::mutex queueMutex;
    std::condition_variable queueReady;
    std::deque<Job> queue;
    std::mutex registryMutex;
    std::unordered_map<Entry *, std::unique_ptr<Entry>> registry;
};

namespace {

class PoolWorker final : public Worker
{
public:
    PoolWorker(std::shared_ptr<PollerShared> shared, const ServerShared &server)
        : m_shared(std::move(shared)), m_state(server)
    {}
    bool init(std::string *) override { return true; }
    void requestStop() override
    {
        m_shared->stopping.store(true);
        m_shared->queueReady.notify_all();
    }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        m_shared->running.fetch_add(1);
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
            case Connection::Next::Close: m_shared->remove(job.entry); break;
            case Connection::Next::Yield: m_shared->push({job.entry, EPOLLOUT}); break;
            case Connection::Next::Read: m_shared->arm(job.entry, false); break;
            case Connection::Next::Write: m_shared->arm(job.entry, true); break;
            }
        }
        m_shared->leave();
    }

private:
    std::shared_ptr<PollerShared> m_shared;
    ThreadState m_state;
};

class PollerThread final : public Worker
{
public:
    PollerThread(std::shared_ptr<PollerShared> shared, int listenFd, const ServerShared &server)
        : m_shared(std::move(shared)), m_listenFd(listenFd), m_options(server.options),
          m_state(server)
    {}

    bool init(std::string *error) override
    {
        epoll_event listen{};
        listen.events = EPOLLIN;
        listen.data.ptr = &listenTag;
        epoll_event wake{};
        wake.events = EPOLLIN;
        wake.data.ptr = &wakeTag;
        if (m_shared->epollFd < 0 || m_shared->wakeFd < 0 || !m_state.acceptGuard.init() ||
            epoll_ctl(m_shared->epollFd, EPOLL_CTL_ADD, m_listenFd, &listen) != 0 ||
            epoll_ctl(m_shared->epollFd, EPOLL_CTL_ADD, m_shared->wakeFd, &wake) != 0) {
            if (error)
                *error = std::string("cannot set up the poller: ") + std::strerror(errno);
            return false;
        }
        return true;
    }
    void requestStop() override
    {
        m_shared->stopping.store(true);
        m_shared->queueReady.notify_all();
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_shared->wakeFd, &one, sizeof one);
    }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        m_shared->running.fetch_add(1);
        epoll_event events[256];
        std::int64_t nextScan = monotonicMs() + deadlineScanMs;
        std::int64_t acceptResume = 0;
        while (!m_shared->stopping.load()) {
            std::int64_t now = monotonicMs();
            if (acceptResume && now >= acceptResume) {
                setAccepting(true);
                acceptResume = 0;
            }
            const int n = epoll_wait(m_shared->epollFd, events, 256,
                                     static_cast<int>(std::max<std::int64_t>(nextScan - now, 0)));
            for (int i = 0; i < n; ++i) {
                void *tag = events[i].data.ptr;
                if (tag == &listenTag) {
                    if (const auto pause = acceptAll(); pause > 0) {
                        setAccepting(false);
                        acceptResume = monotonicMs() + pause;
                    }
                } else if (tag != &wakeTag) {
                    auto *entry = static_cast<PollerShared::Entry *>(tag);
                    if (!entry->queued.exchange(true))
                        m_shared->push({entry, events[i].events});
                }
            }
            now = monotonicMs();
            if (now >= nextScan) {
                expire(now);
                nextScan = now + deadlineScanMs;
            }
        }
        m_shared->leave();
    }

private:
    void setAccepting(bool on)
    {
        epoll_event listen{};
        listen.events = on ? unsigned(EPOLLIN) : 0u;
        listen.data.ptr = &listenTag;
        epoll_ctl(m_shared->epollFd, EPOLL_CTL_MOD, m_listenFd, &listen);
    }

    // Returns how long to stop accepting (ms), 0 to go on.
    std::int64_t acceptAll()
    {
        for (int i = 0; i < acceptBatch; ++i) {
            const auto accepted = m_state.acceptGuard.acceptOne(m_listenFd, m_options.tcpNoDelay);
            if (accepted.fd < 0)
                return accepted.pause.count();
            const int fd = accepted.fd;
            m_state.context.nowMs = monotonicMs();
            auto entry = std::make_unique<PollerShared::Entry>();
            entry->connection = std::make_unique<Connection>(fd, m_state.context);
            PollerShared::Entry *raw = entry.get();
            {
                std::lock_guard lock(m_shared->registryMutex);
                m_shared->registry.emplace(raw, std::move(entry));
            }
            epoll_event event{};
            event.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT;
            event.data.ptr = raw;
            if (epoll_ctl(m_shared->epollFd, EPOLL_CTL_ADD, fd, &event) != 0)
                m_shared->remove(raw);
        }
        return 0;
    }

    // Connections whose deadline passed while they waited in the poller go to the pool, once.
    void expire(std::int64_t now)
    {
        std::vector<PollerShared::Entry *> due;
        {
            std::lock_guard lock(m_shared->registryMutex);
            for (const auto &[entry, owned] : m_shared->registry)
                if (!entry->queued.load() && entry->connection->deadlineMs() <= now)
                    due.push_back(entry);
        }
        for (auto *entry : due) {
            if (entry->queued.exchange(true))
                continue;
            epoll_event none{};
            none.data.ptr = entry;
            epoll_ctl(m_shared->epollFd, EPOLL_CTL_MOD, entry->connection->fd(), &none);
            m_shared->push({entry, 0});
        }
    }

    std::shared_ptr<PollerShared> m_shared;
    int m_listenFd;
    const ServerOptions &m_options;
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
    m_shared->epollFd = epoll_create1(EPOLL_CLOEXEC);
    m_shared->wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    std::vector<std::unique_ptr<Worker>> workers;
    workers.push_back(std::make_unique<PollerThread>(m_shared, m_listener.fd(), shared()));
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<PoolWorker>(m_shared, shared()));
    return workers;
}

} // namespace servelab::server
