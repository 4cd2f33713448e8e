// SPDX-License-Identifier: Apache-2.0
#include "clientreactor.h"

#include "clientconnection.h"
#include "clienthabits.h"
#include "h2clientsession.h"
#include "h2stream.h"
#include "intervalsampler.h"
#include "metrics/clock.h"
#include "metrics/processusage.h"
#include "metrics/syscallcounter.h"
#include "os/threadname.h"
#include "os/uniquefd.h"
#include "tlsclientcontext.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <sys/epoll.h>

namespace servelab::client {

using metrics::monotonicMicros;

void ClientReactor::run(ReactorPolicy &policy, ClientHabits &habits, const StopSignal &stop) const
{
    const os::ThreadName name(os::ThreadName::client);
    // What this thread costs the machine, from here to its end: the point's client cost.
    const metrics::ResourceUse usedBefore = metrics::ResourceUse::ofThisThread();
    const std::int64_t began = monotonicMicros();
    const os::UniqueFd epoll(epoll_create1(EPOLL_CLOEXEC));
    if (!epoll || !stop.watchIn(epoll.get())) {
        policy.counted().fatalError = std::string("cannot set up epoll: ") + std::strerror(errno);
        return;
    }
    std::unique_ptr<TlsClientContext> tls;
    if (options.tls.enabled) {
        std::string why;
        tls = TlsClientContext::create(options.tls, options.host, options.http2, &why);
        if (!tls) {
            policy.counted().fatalError = why;
            return;
        }
    }
    // Its system calls, once the loop's own descriptors are made: a client given just enough of
    // them (an fd-exhaustion run) loses the count (-1), not its epoll set.
    metrics::SyscallCounter calls;
    calls.startThisThread(nullptr); // unknown (-1) where perf events are not allowed
    std::vector<char> scratch(std::max<std::size_t>(options.readBufferBytes, 1024));
    std::vector<ReactorSlot> slots(firstDue.size());
    // HTTP/2: a connection per `streams` slots, which write what their streams submitted once
    // per wake-up (`dirty`).
    std::vector<std::unique_ptr<H2ClientSession>> sessions;
    std::vector<H2ClientSession *> dirty;
    const std::size_t streams = std::size_t(options.streamsPerConnection());
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (options.http2) {
            if (i % streams == 0)
                sessions.push_back(std::make_unique<H2ClientSession>(epoll.get(), target, options,
                                                                     scratch, tls.get(), dirty));
            auto stream = std::make_unique<H2Stream>(*sessions.back(), target.request);
            sessions.back()->attach(*stream);
            slots[i].connection = std::move(stream);
        } else {
            slots[i].connection = std::make_unique<ClientConnection>(
                epoll.get(), target.address, target.addressLength, target.request, options, scratch,
                tls.get());
        }
        slots[i].connection->setSlot(i);
        slots[i].due = firstDue[i];
    }
    std::vector<ReactorSlot *> waiting; // idle, due later

    // A request ended: counted, the connection perhaps closed (realism knobs), the next one
    // scheduled.
    const auto ended = [&](ReactorSlot &s, const ClientExchange::Outcome &o, std::int64_t now) {
        policy.onEnd(s, o, now);
        if (habits.closeNow(*s.connection))
            s.connection->disconnect();
        policy.schedule(s, now);
    };
    // Sends while the slot is due and idle (a request that fails at once frees it again);
    // a slot due later waits in the list.
    const auto send = [&](ReactorSlot &s, std::int64_t now) {
        ClientExchange &c = *s.connection;
        while (!c.busy() && s.due <= double(now) && s.due < double(end) && now < end &&
               !stop.raised()) {
            if (!policy.onSend(s, now)) {
                s.due = ReactorSlot::never;
                return;
            }
            s.sentAt = now;
            const auto o = c.begin(now, habits.nextRequest());
            if (o.type == ClientExchange::Outcome::Pending)
                return;
            now = monotonicMicros();
            ended(s, o, now);
        }
        if (!c.busy() && !s.waiting && s.due < double(end)) {
            s.waiting = true;
            waiting.push_back(&s);
        }
    };

    const std::int64_t timeout = std::int64_t(options.timeoutMs) * 1000;
    constexpr std::int64_t timeoutScanMicros = 100'000;
    std::int64_t nextTimeoutScan = 0;
    IntervalSampler sampler(options.samples, thread, start);
    const auto openConnections = [&] {
        if (options.http2)
            return static_cast<int>(std::count_if(sessions.begin(), sessions.end(),
                                                  [](const auto &c) { return c->open(); }));
        return static_cast<int>(std::count_if(slots.begin(), slots.end(),
                                              [](const auto &s) { return s.connection->open(); }));
    };
    // Requests that ended in one event (or flush), each slot's next one sent at once.
    std::vector<EndedExchange> endedNow;
    const auto finish = [&] {
        if (endedNow.empty())
            return;
        const std::int64_t done = monotonicMicros();
        for (const EndedExchange &e : endedNow) {
            ReactorSlot &s = slots[e.slot];
            ended(s, e.outcome, done);
            send(s, done);
        }
        endedNow.clear();
    };
    // HTTP/2 frames submitted since the last wait go out, a write per connection.
    std::vector<H2ClientSession *> flushing;
    const auto flush = [&] {
        while (!dirty.empty()) {
            flushing.swap(dirty);
            for (H2ClientSession *c : flushing) {
                c->flush(endedNow);
                finish();
            }
            flushing.clear();
        }
    };
    for (auto &s : slots)
        send(s, monotonicMicros());
    std::vector<ReactorSlot *> nowDue;
    epoll_event events[64];
    for (;;) {
        const std::int64_t now = monotonicMicros();
        if (stop.raised() || now >= end || policy.done())
            break;
        // The slots due by now go; the wait ends at the next one's time.
        double wakeAt = double(end);
        nowDue.clear();
        for (std::size_t i = 0; i < waiting.size();) {
            ReactorSlot *s = waiting[i];
            if (s->due <= double(now)) {
                s->waiting = false;
                waiting[i] = waiting.back();
                waiting.pop_back();
                nowDue.push_back(s);
            } else {
                wakeAt = std::min(wakeAt, s->due);
                ++i;
            }
        }
        for (ReactorSlot *s : nowDue)
            send(*s, now);
        flush();
        if (policy.done())
            break;
        // Microsecond waits (epoll_pwait2): at 20,000 req/s a slot is 50 µs long.
        const auto waitMicros = std::clamp<std::int64_t>(
            std::int64_t(std::ceil(wakeAt - double(monotonicMicros()))), 0, 100'000);
        const timespec wait{waitMicros / 1'000'000, (waitMicros % 1'000'000) * 1000};
        const int n = epoll_pwait2(epoll.get(), events, std::size(events), &wait, nullptr);
        for (int i = 0; i < n; ++i) {
            auto *c = static_cast<EventTarget *>(events[i].data.ptr);
            if (!c)
                continue; // the stop eventfd
            c->onEvent(events[i].events, endedNow);
            finish();
        }
        // Timeouts are seconds long: a scan every 100 ms is precise enough and keeps this
        // O(connections) walk off the per-event path.
        const std::int64_t after = monotonicMicros();
        if (sampler.due(after))
            sampler.publish(policy.sampled(), openConnections(), after);
        if (after < nextTimeoutScan)
            continue;
        nextTimeoutScan = after + timeoutScanMicros;
        for (auto &s : slots) {
            if (s.connection->busy() && after - s.connection->startedAt() > timeout) {
                const auto kind =
                    s.connection->connecting() ? ErrorKind::ConnectTimeout : ErrorKind::ReadTimeout;
                s.connection->disconnect();
                ended(s, {ClientExchange::Outcome::Failed, kind}, after);
                send(s, after);
            }
        }
    }
    for (auto &s : slots) {
        const bool inFlight = s.connection->busy();
        if (inFlight)
            s.connection->disconnect();
        policy.onCutOff(s, inFlight);
        policy.counted().connects += s.connection->connectsMade();
    }
    for (const auto &c : sessions)
        policy.counted().connects += c->connectsMade();
    if (tls) {
        LoadResult &counted = policy.counted();
        counted.tlsHandshakes += tls->handshakes();
        counted.tlsResumed += tls->resumed();
        counted.tlsTimes.merge(tls->handshakeTimes());
        if (counted.tlsProblem.empty())
            counted.tlsProblem = !tls->certificateProblem().empty() ? tls->certificateProblem()
                                                                    : tls->handshakeProblem();
    }
    const std::int64_t finished = monotonicMicros();
    policy.counted().elapsedMicros = finished - start;
    metrics::ResourceUse used = metrics::ResourceUse::ofThisThread() - usedBefore;
    used.syscalls = calls.count();
    used.busyThreads =
        double(used.cpuMicros()) >= metrics::ProcessUsage::busyShare * double(finished - began) ? 1
                                                                                                : 0;
    policy.counted().clientUse += used;
    ++policy.counted().clientThreads;
    sampler.publish(policy.sampled(), 0, finished);
}

} // namespace servelab::client
