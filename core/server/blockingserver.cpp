// SPDX-License-Identifier: Apache-2.0
#include "blockingserver.h"

#include "connectiondriver.h"
#include "os/uniquefd.h"
#include "threadstate.h"

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace servelab::server {

// The hand-over between the acceptor and the pool: accepted sockets, and how many workers wait.
struct Handover
{
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<int> sockets;
    int idle = 0;
    int retiring = 0; // workers to stop as they come for a socket (the pool shrinks)
    bool stopping = false;

    void stop()
    {
        {
            std::lock_guard lock(mutex);
            stopping = true;
        }
        changed.notify_all();
    }
};

namespace {

// Serves one accepted connection at a time, to its end.
class PoolWorker final : public Worker
{
public:
    PoolWorker(std::shared_ptr<Handover> handover, int stopFd, const ServerShared &shared)
        : m_handover(std::move(handover)), m_stopFd(stopFd), m_state(shared)
    {}
    bool init(std::string *) override { return true; }
    void requestStop() override { m_handover->stop(); }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        for (;;) {
            int fd = -1;
            {
                std::unique_lock lock(m_handover->mutex);
                ++m_handover->idle;
                m_handover->changed.notify_all();
                m_handover->changed.wait(lock, [&] {
                    return m_handover->stopping || m_handover->retiring > 0 ||
                           !m_handover->sockets.empty();
                });
                --m_handover->idle;
                if (m_handover->stopping)
                    return;
                if (m_handover->retiring > 0) {
                    --m_handover->retiring;
                    return;
                }
                fd = m_handover->sockets.front();
                m_handover->sockets.pop_front();
            }
            serveToEnd(fd, m_state, m_stopFd);
            m_state.acceptGuard.released();
        }
    }

private:
    std::shared_ptr<Handover> m_handover;
    int m_stopFd;
    ThreadState m_state;
};

// Accepts only while a worker is free: with the pool busy, connections wait in the backlog.
class Acceptor final : public Worker
{
public:
    Acceptor(std::shared_ptr<Handover> handover, int listenFd, int stopFd,
             const ServerShared &shared)
        : m_handover(std::move(handover)), m_listenFd(listenFd), m_stopFd(stopFd),
          m_options(shared.options), m_state(shared)
    {}

    bool init(std::string *error) override
    {
        if (m_stopFd < 0 || !m_state.acceptGuard.init()) {
            if (error)
                *error = std::string("cannot set up the blocking pool: ") + std::strerror(errno);
            return false;
        }
        return true;
    }
    void requestStop() override
    {
        m_handover->stop();
        const std::uint64_t one = 1;
        [[maybe_unused]] auto n = ::write(m_stopFd, &one, sizeof one);
    }
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    void run() override
    {
        for (;;) {
            {
                std::unique_lock lock(m_handover->mutex);
                m_handover->changed.wait(lock, [&] {
                    return m_handover->stopping ||
                           m_handover->idle > static_cast<int>(m_handover->sockets.size());
                });
                if (m_handover->stopping)
                    break;
            }
            pollfd fds[2] = {{m_listenFd, POLLIN, 0}, {m_stopFd, POLLIN, 0}};
            if (poll(fds, 2, -1) < 0 && errno != EINTR)
                break;
            if (fds[1].revents)
                break;
            const auto accepted = m_state.acceptGuard.acceptOne(m_listenFd, m_options.tcpNoDelay);
            if (accepted.pause.count() > 0) {
                pollfd stop{m_stopFd, POLLIN, 0};
                if (poll(&stop, 1, static_cast<int>(accepted.pause.count())) > 0)
                    break;
            }
            if (accepted.fd < 0)
                continue; // EAGAIN (a spurious wake-up) or refused
            const int fd = accepted.fd;
            {
                std::lock_guard lock(m_handover->mutex);
                m_handover->sockets.push_back(fd);
            }
            m_handover->changed.notify_all();
        }
        // Sockets accepted but never picked up by a worker.
        std::lock_guard lock(m_handover->mutex);
        for (int fd : m_handover->sockets) {
            os::UniqueFd(fd).reset();
            m_state.acceptGuard.released();
        }
        m_handover->sockets.clear();
    }

private:
    std::shared_ptr<Handover> m_handover;
    int m_listenFd;
    int m_stopFd;
    const ServerOptions &m_options;
    ThreadState m_state;
};

} // namespace

BlockingServer::~BlockingServer()
{
    stop();
}

std::uint64_t BlockingServer::queuedNow() const
{
    if (!m_handover)
        return 0;
    std::lock_guard lock(m_handover->mutex);
    return m_handover->sockets.size();
}

std::unique_ptr<Worker> BlockingServer::createPoolWorker()
{
    return std::make_unique<PoolWorker>(m_handover, m_stopFd.get(), shared());
}

void BlockingServer::retirePoolWorkers(int count)
{
    {
        std::lock_guard lock(m_handover->mutex);
        m_handover->retiring += count;
    }
    m_handover->changed.notify_all();
}

std::vector<std::unique_ptr<Worker>> BlockingServer::createWorkers()
{
    m_stopFd.reset(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    auto handover = std::make_shared<Handover>();
    m_handover = handover;
    std::vector<std::unique_ptr<Worker>> workers;
    workers.push_back(
        std::make_unique<Acceptor>(handover, m_listener.fd(), m_stopFd.get(), shared()));
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(createPoolWorker());
    return workers;
}

} // namespace servelab::server
