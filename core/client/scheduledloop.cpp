// SPDX-License-Identifier: Apache-2.0
#include "scheduledloop.h"

#include "clienthabits.h"
#include "intervalsampler.h"
#include "loadloop.h"
#include "metrics/clock.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sys/epoll.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace servelab::client {

using metrics::monotonicMicros;

void ScheduledLoop::run(SchedulePolicy &policy, const StopSignal &stop) const
{
    const int epollFd = epoll_create1(EPOLL_CLOEXEC);
    if (epollFd < 0 || !stop.watchIn(epollFd)) {
        policy.counted().fatalError = std::string("cannot set up epoll: ") + std::strerror(errno);
        if (epollFd >= 0)
            ::close(epollFd);
        return;
    }
    std::vector<char> scratch(std::max<std::size_t>(options.readBufferBytes, 1024));
    std::vector<ScheduledSlot> slots(firstDue.size());
    std::unordered_map<const ClientConnection *, ScheduledSlot *> slotOf;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        slots[i].connection = std::make_unique<ClientConnection>(
            epollFd, target.address, target.addressLength, target.request, options, scratch);
        slots[i].due = firstDue[i];
        slotOf.emplace(slots[i].connection.get(), &slots[i]);
    }
    const std::int64_t timeout = std::int64_t(options.timeoutMs) * 1000;
    ClientHabits habits(options, target, thread);
    auto ended = [&](ScheduledSlot &s, const ClientConnection::Outcome &o, std::int64_t now) {
        policy.onEnd(s, o, now);
        if (habits.closeNow(*s.connection))
            s.connection->close();
    };

    // Sends every request that is due, on idle connections.
    auto sendDue = [&](std::int64_t now) {
        for (auto &s : slots) {
            ClientConnection &c = *s.connection;
            while (!c.busy() && s.due <= double(now) && s.due < double(end)) {
                policy.onSend(s, now);
                s.sentAt = now;
                const auto o = c.begin(now, habits.nextRequest());
                if (o.type == ClientConnection::Outcome::Pending)
                    break;
                ended(s, o, monotonicMicros());
            }
        }
    };
    auto nextDue = [&] {
        double due = double(end);
        for (const auto &s : slots)
            if (!s.connection->busy())
                due = std::min(due, s.due);
        return due;
    };

    IntervalSampler sampler(options.samples, thread, start);
    const auto openConnections = [&] {
        return static_cast<int>(std::count_if(slots.begin(), slots.end(),
                                              [](const auto &s) { return s.connection->open(); }));
    };
    epoll_event events[64];
    std::int64_t nextTimeoutScan = 0;
    for (;;) {
        const std::int64_t now = monotonicMicros();
        if (stop.raised() || now >= end)
            break;
        sendDue(now);
        // Microsecond waits (epoll_pwait2): at 20,000 req/s a slot is 50 µs long.
        const auto waitMicros = std::clamp<std::int64_t>(
            std::int64_t(std::ceil(nextDue() - double(monotonicMicros()))), 0, 100'000);
        const timespec wait{waitMicros / 1'000'000, (waitMicros % 1'000'000) * 1000};
        const int n = epoll_pwait2(epollFd, events, std::size(events), &wait, nullptr);
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<ClientConnection *>(events[i].data.ptr);
            if (!c)
                continue; // the stop eventfd
            const auto o = c->onEvent(events[i].events);
            if (o.type == ClientConnection::Outcome::Pending)
                continue;
            ended(*slotOf.at(c), o, monotonicMicros());
        }
        // Timeouts are seconds long: a scan every 100 ms is precise enough.
        const std::int64_t after = monotonicMicros();
        if (sampler.due(after))
            sampler.publish(policy.sampled(), openConnections(), after);
        if (after >= nextTimeoutScan) {
            nextTimeoutScan = after + 100'000;
            for (auto &s : slots) {
                if (s.connection->busy() && after - s.connection->startedAt() > timeout) {
                    const auto kind = s.connection->connecting() ? ErrorKind::ConnectTimeout
                                                                 : ErrorKind::ReadTimeout;
                    s.connection->close();
                    policy.onEnd(s, {ClientConnection::Outcome::Failed, kind}, after);
                }
            }
        }
    }
    for (auto &s : slots) {
        const bool inFlight = s.connection->busy();
        if (inFlight)
            s.connection->close();
        policy.onCutOff(s, inFlight);
        policy.counted().connects += s.connection->connectsMade();
    }
    const std::int64_t finished = monotonicMicros();
    policy.counted().elapsedMicros = finished - start;
    sampler.publish(policy.sampled(), 0, finished);
    ::close(epollFd);
}

void runScheduledThreads(const ClientOptions &options, const RequestTarget &target,
                         std::int64_t start, std::int64_t end,
                         const std::function<double(int)> &firstDue,
                         const std::vector<SchedulePolicy *> &policies, const StopSignal &stop)
{
    const int threadCount = static_cast<int>(policies.size());
    std::vector<std::thread> threads;
    int first = 0;
    for (int i = 0; i < threadCount; ++i) {
        ScheduledLoop loop{.options = options,
                           .target = target,
                           .firstDue = {},
                           .start = start,
                           .end = end,
                           .thread = i};
        const int connections = threadShare(options.concurrency, threadCount, i);
        for (int j = 0; j < connections; ++j)
            loop.firstDue.push_back(firstDue(first + j));
        first += connections;
        threads.emplace_back([&stop, loop = std::move(loop), policy = policies[std::size_t(i)]] {
            loop.run(*policy, stop);
        });
    }
    for (auto &thread : threads)
        thread.join();
}

} // namespace servelab::client
