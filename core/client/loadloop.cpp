// SPDX-License-Identifier: Apache-2.0
#include "loadloop.h"

#include "clientconnection.h"
#include "clienthabits.h"
#include "intervalsampler.h"
#include "metrics/clock.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/epoll.h>
#include <unistd.h>
#include <vector>

namespace servelab::client {

using metrics::monotonicMicros;

bool CountBudget::take(std::int64_t)
{
    std::uint64_t left = m_left.load(std::memory_order_relaxed);
    while (left > 0)
        if (m_left.compare_exchange_weak(left, left - 1, std::memory_order_relaxed))
            return true;
    return false;
}

bool UntilBudget::exhausted() const
{
    return monotonicMicros() >= m_end;
}

LoadResult LoadLoop::run(const StopSignal &stop) const
{
    LoadResult result;
    const int epollFd = epoll_create1(EPOLL_CLOEXEC);
    if (epollFd < 0 || !stop.watchIn(epollFd)) {
        result.fatalError = std::string("cannot set up epoll: ") + std::strerror(errno);
        if (epollFd >= 0)
            ::close(epollFd);
        return result;
    }

    std::vector<char> scratch(std::max<std::size_t>(options.readBufferBytes, 1024));
    std::vector<std::unique_ptr<ClientConnection>> slots;
    for (std::size_t i = 0; i < connections; ++i)
        slots.push_back(std::make_unique<ClientConnection>(
            epollFd, target.address, target.addressLength, target.request, options, scratch));

    const std::int64_t timeout = std::int64_t(options.timeoutMs) * 1000;
    std::uint64_t issued = 0;
    constexpr std::int64_t timeoutScanMicros = 100'000;
    std::int64_t nextTimeoutScan = 0;
    const auto stopped = [&] { return stop.raised(); };

    // One clock reading per response serves its latency and the start of the next request.
    auto record = [&](ClientConnection &c, const ClientConnection::Outcome &o, std::int64_t now) {
        result.countRequest(o.failure(), c.bytesRead(), c.bodyBytes(), now - c.startedAt());
        if (options.connectionTimes && o.type == ClientConnection::Outcome::Completed) {
            result.connectTimes.record(c.connectedAt() - c.startedAt());
            result.processingTimes.record(now - c.connectedAt());
            result.waitingTimes.record(c.firstByteAt() - c.sentAt());
        }
    };
    // Keeps a slot busy while the budget allows: a request that fails at once frees it again.
    ClientHabits habits(options, target, thread);
    auto launch = [&](ClientConnection &c, std::int64_t now) {
        while (!stopped() && now < deadline && budget.take(now)) {
            ++issued;
            const auto o = c.begin(now, habits.nextRequest());
            if (o.type == ClientConnection::Outcome::Pending)
                return;
            now = monotonicMicros();
            record(c, o, now);
        }
    };

    // After a response: the client may close the connection (realism knobs), and may think
    // before the connection's next request.
    struct Thinking
    {
        ClientConnection *connection;
        std::int64_t until;
    };
    std::vector<Thinking> thinking;
    auto next = [&](ClientConnection &c, std::int64_t now) {
        if (habits.closeNow(c))
            c.close();
        if (habits.thinks())
            thinking.push_back({&c, now + std::int64_t(habits.thinkMicros())});
        else
            launch(c, now);
    };
    IntervalSampler sampler(options.samples, thread, start);
    const auto openConnections = [&] {
        return static_cast<int>(
            std::count_if(slots.begin(), slots.end(), [](const auto &c) { return c->open(); }));
    };
    for (auto &c : slots)
        launch(*c, monotonicMicros());
    epoll_event events[64];
    while (!stopped() && (result.completed < issued || !budget.exhausted())) {
        const std::int64_t now = monotonicMicros();
        if (now >= deadline)
            break;
        // Connections whose think time is over go on; the wait ends at the next one's.
        std::int64_t wakeAt = deadline;
        for (std::size_t i = 0; i < thinking.size();) {
            if (thinking[i].until <= now) {
                ClientConnection *c = thinking[i].connection;
                thinking[i] = thinking.back();
                thinking.pop_back();
                launch(*c, now);
            } else {
                wakeAt = std::min(wakeAt, thinking[i++].until);
            }
        }
        if (result.completed == issued && budget.exhausted())
            break;
        const auto waitMs = std::clamp<std::int64_t>((wakeAt - now + 999) / 1000, 0, 100);
        const int n = epoll_wait(epollFd, events, std::size(events), static_cast<int>(waitMs));
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<ClientConnection *>(events[i].data.ptr);
            if (!c)
                continue; // the stop eventfd
            const auto o = c->onEvent(events[i].events);
            if (o.type == ClientConnection::Outcome::Pending)
                continue;
            const std::int64_t done = monotonicMicros();
            record(*c, o, done);
            next(*c, done);
        }
        // Timeouts are seconds long: a scan every 100 ms is precise enough and keeps this
        // O(connections) walk off the per-event path.
        const std::int64_t after = monotonicMicros();
        if (sampler.due(after))
            sampler.publish(result, openConnections(), after);
        if (after < nextTimeoutScan)
            continue;
        nextTimeoutScan = after + timeoutScanMicros;
        for (auto &c : slots) {
            if (c->busy() && after - c->startedAt() > timeout) {
                const auto kind =
                    c->connecting() ? ErrorKind::ConnectTimeout : ErrorKind::ReadTimeout;
                c->close();
                record(*c, {ClientConnection::Outcome::Failed, kind}, after);
                launch(*c, after);
            }
        }
    }
    for (auto &c : slots) {
        if (c->busy()) {
            c->close();
            if (abortInFlight)
                record(*c, {ClientConnection::Outcome::Failed, ErrorKind::AbortedAtDeadline},
                       monotonicMicros());
            else
                ++result.unfinished;
        }
        result.connects += c->connectsMade();
    }
    result.elapsedMicros = monotonicMicros() - start;
    sampler.publish(result, 0, start + result.elapsedMicros);
    ::close(epollFd);
    return result;
}

} // namespace servelab::client
