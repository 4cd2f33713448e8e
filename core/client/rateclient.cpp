#include "rateclient.h"

#include "clientconnection.h"
#include "metrics/clock.h"
#include "requesttarget.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace servelab::client {

using metrics::monotonicMicros;

namespace {

// A request slot is late when it goes out this long after its intended time; below that it is
// the loop's own jitter.
constexpr std::int64_t lateAfterMicros = 1000;

struct Slot
{
    std::unique_ptr<ClientConnection> connection;
    double intended = 0;     // µs: when the current or next request is meant to go out
    std::int64_t sentAt = 0; // µs: when the current one actually went out
};

struct ThreadResult
{
    LoadResult result;
    LatencyHistogram uncorrected;
    std::uint64_t late = 0;
    std::uint64_t missed = 0;
};

// One thread: its connections each follow their own schedule (one request every `interval`
// µs), offset so that the thread's requests are spread evenly.
ThreadResult runThread(const ClientOptions &options, const RequestTarget &target,
                       std::size_t connections, double interval, double firstOffset,
                       double offsetStep, std::int64_t start, std::int64_t end,
                       const std::atomic<bool> &stop, int wakeFd)
{
    ThreadResult out;
    LoadResult &result = out.result;
    const int epollFd = epoll_create1(EPOLL_CLOEXEC);
    epoll_event wake{};
    wake.events = EPOLLIN;
    wake.data.ptr = nullptr;
    if (epollFd < 0 || epoll_ctl(epollFd, EPOLL_CTL_ADD, wakeFd, &wake) != 0) {
        result.fatalError = std::string("cannot set up epoll: ") + std::strerror(errno);
        if (epollFd >= 0)
            ::close(epollFd);
        return out;
    }
    std::vector<char> scratch(std::max<std::size_t>(options.readBufferBytes, 1024));
    std::vector<Slot> slots(connections);
    for (std::size_t i = 0; i < connections; ++i) {
        slots[i].connection = std::make_unique<ClientConnection>(
            epollFd, target.address, target.addressLength, target.request, options, scratch);
        slots[i].intended = double(start) + firstOffset + double(i) * offsetStep;
    }
    std::unordered_map<const ClientConnection *, Slot *> slotOf;
    for (auto &s : slots)
        slotOf.emplace(s.connection.get(), &s);
    const std::int64_t timeout = std::int64_t(options.timeoutMs) * 1000;

    auto record = [&](Slot &s, const ClientConnection::Outcome &o, std::int64_t now) {
        ClientConnection &c = *s.connection;
        ++result.completed;
        result.bytesRead += c.bytesRead();
        result.bodyBytes += c.bodyBytes();
        const bool answered = o.type == ClientConnection::Outcome::Completed ||
                              o.error == ErrorKind::Status4xx || o.error == ErrorKind::Status5xx;
        if (o.type == ClientConnection::Outcome::Completed)
            ++result.ok;
        else
            result.countError(o.error);
        if (answered) {
            result.latency.record(now - std::llround(s.intended));
            out.uncorrected.record(now - s.sentAt);
        }
        s.intended += interval; // the next request's slot, whenever this one ended
    };
    // Sends every request whose slot has come, on idle connections.
    auto sendDue = [&](std::int64_t now) {
        for (auto &s : slots) {
            ClientConnection &c = *s.connection;
            while (!c.busy() && s.intended <= double(now) && s.intended < double(end)) {
                if (double(now) - s.intended > double(lateAfterMicros))
                    ++out.late;
                s.sentAt = now;
                auto o = c.begin(now);
                if (o.type == ClientConnection::Outcome::Retry)
                    o = c.begin(now);
                if (o.type == ClientConnection::Outcome::Pending)
                    break;
                record(s, o, monotonicMicros());
            }
        }
    };
    auto nextDue = [&] {
        double due = double(end);
        for (const auto &s : slots)
            if (!s.connection->busy())
                due = std::min(due, s.intended);
        return due;
    };

    epoll_event events[64];
    std::int64_t nextTimeoutScan = 0;
    for (;;) {
        const std::int64_t now = monotonicMicros();
        if (stop.load(std::memory_order_acquire) || now >= end)
            break;
        sendDue(now);
        const double due = std::min(nextDue(), double(end));
        // Microsecond waits (epoll_pwait2): at 20,000 req/s a slot is 50 µs long.
        const auto waitMicros = std::clamp<std::int64_t>(
            std::int64_t(std::ceil(due - double(monotonicMicros()))), 0, 100'000);
        const timespec wait{waitMicros / 1'000'000, (waitMicros % 1'000'000) * 1000};
        const int n = epoll_pwait2(epollFd, events, std::size(events), &wait, nullptr);
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<ClientConnection *>(events[i].data.ptr);
            if (!c)
                continue;
            auto o = c->onEvent(events[i].events);
            if (o.type == ClientConnection::Outcome::Retry)
                o = c->begin(c->startedAt());
            if (o.type == ClientConnection::Outcome::Pending)
                continue;
            record(*slotOf.at(c), o, monotonicMicros());
        }
        const std::int64_t after = monotonicMicros();
        if (after >= nextTimeoutScan) {
            nextTimeoutScan = after + 100'000;
            for (auto &s : slots) {
                if (s.connection->busy() && after - s.connection->startedAt() > timeout) {
                    const auto kind = s.connection->connecting() ? ErrorKind::ConnectTimeout
                                                                 : ErrorKind::ReadTimeout;
                    s.connection->close();
                    record(s, {ClientConnection::Outcome::Failed, kind}, after);
                }
            }
        }
    }
    for (auto &s : slots) {
        if (s.connection->busy()) {
            s.connection->close();
            ++result.unfinished;
            s.intended += interval;
        }
        // Slots that came due before the end but never got their request.
        if (s.intended < double(end))
            out.missed += std::uint64_t(std::ceil((double(end) - s.intended) / interval));
        result.connects += s.connection->connectsMade();
    }
    result.elapsedMicros = monotonicMicros() - start;
    ::close(epollFd);
    return out;
}

} // namespace

RateClient::RateClient(ClientOptions options, int threads, std::int64_t durationMs,
                       double ratePerSecond)
    : m_options(std::move(options)), m_threads(threads), m_durationMs(durationMs),
      m_rate(ratePerSecond), m_wakeFd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
{
    m_options.keepAlive = true; // wrk2 keeps every connection alive
}

RateClient::~RateClient()
{
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
}

void RateClient::stop()
{
    m_stop.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_wakeFd, &one, sizeof one);
}

RateClient::Result RateClient::run()
{
    Result result;
    result.total.concurrency = m_options.concurrency;
    result.offeredPerSecond = m_rate;
    if (!(m_rate > 0) || m_threads < 1 || m_options.concurrency < m_threads || m_durationMs <= 0) {
        result.total.fatalError = "the rate and the duration must be positive and every thread "
                                  "needs a connection (c >= t >= 1)";
        return result;
    }
    if (m_wakeFd < 0) {
        result.total.fatalError = std::string("cannot create an eventfd: ") + std::strerror(errno);
        return result;
    }
    RequestTarget target;
    if (!target.prepare(m_options, &result.total.fatalError))
        return result;
    // Each connection sends at rate / c; connection j (counted across threads) starts j / rate
    // after the start, so the requests of all connections interleave evenly.
    const double interval = 1e6 * double(m_options.concurrency) / m_rate;
    const double step = 1e6 / m_rate;
    const std::int64_t start = monotonicMicros();
    const std::int64_t end = start + m_durationMs * 1000;
    std::vector<ThreadResult> parts(static_cast<std::size_t>(m_threads));
    std::vector<std::thread> threads;
    int first = 0;
    for (int i = 0; i < m_threads; ++i) {
        const int connections =
            m_options.concurrency / m_threads + (i < m_options.concurrency % m_threads ? 1 : 0);
        // This thread's connections are global numbers first, first + 1, …: offsets j × step.
        threads.emplace_back([&, i, first, connections] {
            parts[static_cast<std::size_t>(i)] =
                runThread(m_options, target, static_cast<std::size_t>(connections), interval,
                          double(first) * step, step, start, end, m_stop, m_wakeFd);
        });
        first += connections;
    }
    for (auto &thread : threads)
        thread.join();
    for (auto &part : parts) {
        result.total.merge(part.result);
        result.uncorrected.merge(part.uncorrected);
        result.late += part.late;
        result.missed += part.missed;
        result.perThread.push_back(std::move(part.result));
    }
    result.total.concurrency = m_options.concurrency;
    result.total.elapsedMicros = monotonicMicros() - start;
    return result;
}

} // namespace servelab::client
