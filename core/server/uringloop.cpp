// SPDX-License-Identifier: Apache-2.0
#include "uringloop.h"

#include "serveroptions.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcUring, "servelab.server.uring")

namespace servelab::server {

namespace {
// user_data of the requests that are not a connection's.
constexpr std::uint64_t acceptId = 1;
constexpr std::uint64_t wakeId = 2;
constexpr std::uint64_t cancelId = 3;
constexpr std::uint64_t firstConnectionId = 16;
constexpr unsigned ringEntries = 512;
} // namespace

UringLoop::UringLoop(int listenFd, const ServerShared &shared)
    : m_listenFd(listenFd), m_state(shared), m_nextId(firstConnectionId),
      m_tcpNoDelay(shared.options.tcpNoDelay)
{}

UringLoop::~UringLoop()
{
    // Exiting the ring cancels what is in flight and drops its references to the sockets.
    if (m_ringReady)
        io_uring_queue_exit(&m_ring);
    m_slots.clear();
}

bool UringLoop::init(std::string *error)
{
    m_wakeFd.reset(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
    if (!m_wakeFd || !m_state.acceptGuard.init()) {
        if (error)
            *error = std::string("cannot set up the uring loop: ") + std::strerror(errno);
        return false;
    }
    return true;
}

// The ring is created by the thread that uses it: the kernel ties a ring to the tasks that
// created or used it and, when the ring goes away, interrupts them to clean up (a blocking
// recv() with a timeout in the creating thread would fail with EINTR).
bool UringLoop::setUpRing()
{
    // Only this thread submits, and it reaps its completions itself: say so where the kernel
    // can use it (6.0+), else fall back to a plain ring.
    int rc = -EINVAL;
    for (const unsigned flags : {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN, 0u}) {
        rc = io_uring_queue_init(ringEntries, &m_ring, flags);
        if (rc != -EINVAL)
            break;
    }
    m_ringReady = rc == 0;
    m_setUp.set_value(m_ringReady ? std::string()
                                  : "io_uring_setup failed: " + std::string(std::strerror(-rc)));
    return m_ringReady;
}

bool UringLoop::waitReady(std::string *error)
{
    const std::string why = m_setUpResult.get();
    if (!why.empty() && error)
        *error = why;
    return why.empty();
}

void UringLoop::requestStop()
{
    m_stopping.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_wakeFd.get(), &one, sizeof one);
}

// A free submission entry; submits what is queued when the ring is full.
io_uring_sqe *UringLoop::sqe()
{
    io_uring_sqe *entry = io_uring_get_sqe(&m_ring);
    while (!entry) {
        io_uring_submit(&m_ring);
        entry = io_uring_get_sqe(&m_ring);
    }
    return entry;
}

void UringLoop::armAccept()
{
    io_uring_sqe *entry = sqe();
    if (m_multishotAccept)
        io_uring_prep_multishot_accept(entry, m_listenFd, nullptr, nullptr,
                                       SOCK_NONBLOCK | SOCK_CLOEXEC);
    else
        io_uring_prep_accept(entry, m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    io_uring_sqe_set_data64(entry, acceptId);
    m_acceptArmed = true;
}

void UringLoop::armWake()
{
    io_uring_sqe *entry = sqe();
    io_uring_prep_poll_add(entry, m_wakeFd.get(), POLLIN);
    io_uring_sqe_set_data64(entry, wakeId);
}

void UringLoop::run()
{
    if (m_stopping.load()) {
        m_setUp.set_value("stopped before it started");
        return;
    }
    if (!setUpRing())
        return;
    armAccept();
    armWake();
    while (!m_stopping.load(std::memory_order_acquire)) {
        m_state.wake();
        std::int64_t timeout = -1;
        if (!m_slots.empty())
            timeout = std::clamp<std::int64_t>(m_nextTimerScanMs - m_state.context.nowMs, 0,
                                               deadlineScanMs);
        if (!m_yielded.empty())
            timeout = 0;
        if (m_acceptResumeMs > 0) {
            const auto pause = std::max<std::int64_t>(m_acceptResumeMs - m_state.context.nowMs, 0);
            timeout = timeout < 0 ? pause : std::min(timeout, pause);
        }
        io_uring_cqe *cqe = nullptr;
        int rc;
        if (timeout < 0) {
            rc = io_uring_submit_and_wait(&m_ring, 1);
        } else {
            __kernel_timespec ts{timeout / 1000, (timeout % 1000) * 1'000'000};
            rc = io_uring_submit_and_wait_timeout(&m_ring, &cqe, 1, &ts, nullptr);
        }
        if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
            qCCritical(lcUring, "io_uring wait failed: %s", std::strerror(-rc));
            break;
        }
        m_state.wake();
        unsigned head;
        unsigned seen = 0;
        // Handlers queue new requests but never wait, so the completion queue is stable here.
        io_uring_for_each_cqe(&m_ring, head, cqe)
        {
            ++seen;
            const std::uint64_t id = io_uring_cqe_get_data64(cqe);
            if (id == acceptId)
                onAccepted(cqe->res, cqe->flags);
            else if (id == wakeId) {
                std::uint64_t value;
                [[maybe_unused]] auto n = ::read(m_wakeFd.get(), &value, sizeof value);
                armWake();
            } else if (id >= firstConnectionId)
                onPolled(id, cqe->res);
        }
        io_uring_cq_advance(&m_ring, seen);
        if (m_acceptResumeMs > 0 && m_state.context.nowMs >= m_acceptResumeMs) {
            m_acceptResumeMs = 0;
            armAccept();
        }
        runYielded();
        if (m_state.context.nowMs >= m_nextTimerScanMs) {
            expireTimers();
            m_nextTimerScanMs = m_state.context.nowMs + deadlineScanMs;
        }
    }
    m_yielded.clear();
    for (std::size_t i = 0; i < m_slots.size(); ++i)
        m_state.acceptGuard.released();
    io_uring_queue_exit(&m_ring);
    m_ringReady = false;
    m_slots.clear();
}

void UringLoop::onAccepted(int result, unsigned flags)
{
    if (!(flags & IORING_CQE_F_MORE))
        m_acceptArmed = false;
    if (result >= 0) {
        const int fd = result;
        if (m_state.acceptGuard.adopt(fd, m_tcpNoDelay)) {
            const std::uint64_t id = m_nextId++;
            m_slots[id].connection = std::make_unique<Connection>(fd, m_state.context);
            apply(id, Connection::Next::Read);
        } else {
            pauseAccepting(AcceptGuard::refusalPause());
            return;
        }
    } else if (result == -EMFILE || result == -ENFILE) {
        const auto pause = m_state.acceptGuard.onExhausted(m_listenFd);
        if (pause.count() > 0) {
            pauseAccepting(pause);
            return;
        }
    } else if (result == -EINVAL && m_multishotAccept) {
        m_multishotAccept = false; // a kernel before 5.19: accept one at a time
    } else if (result != -ECANCELED && result != -EAGAIN && result != -EINTR &&
               result != -ECONNABORTED) {
        qCWarning(lcUring, "accept failed: %s", std::strerror(-result));
    }
    if (!m_acceptArmed && m_acceptResumeMs == 0 && !m_stopping.load())
        armAccept();
}

void UringLoop::pauseAccepting(std::chrono::milliseconds pause)
{
    if (m_acceptResumeMs != 0)
        return; // already paused (completions of the cancelled accept arrive after)
    m_acceptResumeMs = m_state.context.nowMs + pause.count();
    if (m_acceptArmed) { // a multishot accept that goes on: stop it for the pause
        io_uring_sqe *entry = sqe();
        io_uring_prep_cancel64(entry, acceptId, 0);
        io_uring_sqe_set_data64(entry, cancelId);
    }
}

void UringLoop::onPolled(std::uint64_t id, int result)
{
    const auto found = m_slots.find(id);
    if (found == m_slots.end())
        return; // completed after its connection closed (cancelled)
    found->second.polling = false;
    if (std::find(m_yielded.begin(), m_yielded.end(), id) != m_yielded.end())
        return;
    Connection &c = *found->second.connection;
    const unsigned events = result < 0 ? POLLERR : unsigned(result);
    Connection::Next next;
    if (c.writing())
        next = (events & (POLLOUT | POLLERR | POLLHUP)) ? c.onWritable() : Connection::Next::Write;
    else
        next = c.onReadable((events & (POLLRDHUP | POLLHUP | POLLERR)) != 0);
    apply(id, next);
}

void UringLoop::apply(std::uint64_t id, Connection::Next next)
{
    if (next == Connection::Next::Close)
        return drop(id);
    if (next == Connection::Next::Yield) {
        m_yielded.push_back(id);
        return;
    }
    Slot &slot = m_slots[id];
    if (slot.polling)
        return;
    io_uring_sqe *entry = sqe();
    const unsigned mask = next == Connection::Next::Write ? POLLOUT : (POLLIN | POLLRDHUP);
    io_uring_prep_poll_add(entry, slot.connection->fd(), mask);
    io_uring_sqe_set_data64(entry, id);
    slot.polling = true;
}

void UringLoop::drop(std::uint64_t id)
{
    const auto found = m_slots.find(id);
    if (found == m_slots.end())
        return;
    if (found->second.polling) {
        // The poll holds a reference to the socket: cancel it, or the peer would not see the
        // close until the socket next became ready.
        io_uring_sqe *entry = sqe();
        io_uring_prep_poll_remove(entry, id);
        io_uring_sqe_set_data64(entry, cancelId);
    }
    std::erase(m_yielded, id);
    m_slots.erase(found);
    m_state.acceptGuard.released();
}

void UringLoop::runYielded()
{
    auto runnable = std::move(m_yielded);
    m_yielded.clear();
    for (const std::uint64_t id : runnable)
        if (const auto found = m_slots.find(id); found != m_slots.end())
            apply(id, found->second.connection->onWritable());
}

void UringLoop::expireTimers()
{
    std::vector<std::uint64_t> expired;
    for (const auto &[id, slot] : m_slots)
        if (slot.connection->deadlineMs() <= m_state.context.nowMs)
            expired.push_back(id);
    for (const std::uint64_t id : expired)
        apply(id, m_slots[id].connection->onTimer());
}

} // namespace servelab::server
