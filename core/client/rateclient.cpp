// SPDX-License-Identifier: Apache-2.0
#include "rateclient.h"

#include "metrics/clock.h"
#include "requesttarget.h"
#include "scheduledloop.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <unistd.h>

namespace servelab::client {

using metrics::monotonicMicros;

namespace {

// A request is late when it goes out this long after its intended time; below that it is the
// loop's own jitter.
constexpr std::int64_t lateAfterMicros = 1000;

// wrk2's schedule: one request every `interval` µs per connection, whatever the server does.
class RatePolicy final : public ReactorPolicy
{
public:
    RatePolicy(double interval, std::int64_t end) : m_interval(interval), m_end(end) {}

    bool onSend(ReactorSlot &s, std::int64_t now) override
    {
        if (double(now) - s.due > double(lateAfterMicros))
            ++late;
        return true;
    }
    void onEnd(ReactorSlot &s, const ClientExchange::Outcome &o, std::int64_t now) override
    {
        const ClientExchange &c = *s.connection;
        // Latency from the intended send time (corrected), and from the actual one.
        if (result.countRequest(o.failure(), c.bytesRead(), c.bodyBytes(),
                                now - std::llround(s.due)))
            uncorrected.record(now - s.sentAt);
        s.due += m_interval; // the next request's slot, whenever this one ended
    }
    void onCutOff(ReactorSlot &s, bool inFlight) override
    {
        if (inFlight) {
            ++result.unfinished;
            s.due += m_interval;
        }
        // Slots that came due before the end but never got their request.
        if (s.due < double(m_end))
            missed += std::uint64_t(std::ceil((double(m_end) - s.due) / m_interval));
    }

    LoadResult &counted() override { return result; }

    LoadResult result;
    LatencyHistogram uncorrected;
    std::uint64_t late = 0;
    std::uint64_t missed = 0;

private:
    double m_interval;
    std::int64_t m_end;
};

} // namespace

RateClient::RateClient(ClientOptions options, int threads, std::int64_t durationMs,
                       double ratePerSecond)
    : m_options(std::move(options)), m_threads(threads), m_durationMs(durationMs),
      m_rate(ratePerSecond)
{
    // wrk2 keeps every connection alive, unless the https handshake policy makes a new one for
    // every request.
    m_options.keepAlive = m_options.tls.policy == HandshakePolicy::KeepAlive;
}

void RateClient::stop()
{
    m_stop.raise();
}

RateClient::Result RateClient::run()
{
    Result result;
    result.total.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.total.streams = m_options.streamsPerConnection();
    result.offeredPerSecond = m_rate;
    if (!(m_rate > 0) || m_threads < 1 || m_options.concurrency < m_threads || m_durationMs <= 0) {
        result.total.fatalError = "the rate and the duration must be positive and every thread "
                                  "needs a connection (c >= t >= 1)";
        return result;
    }
    RequestTarget target;
    if (!m_stop.ready(&result.total.fatalError) ||
        !target.prepare(m_options, &result.total.fatalError))
        return result;
    // Each slot (a connection, or an HTTP/2 stream of one) sends at rate / slots; slot j
    // (counted across threads) starts j / rate after the start, so that all their requests
    // interleave evenly.
    const double interval = 1e6 * double(m_options.requestSlots()) / m_rate;
    const double step = 1e6 / m_rate;
    const std::int64_t start = monotonicMicros();
    const std::int64_t end = start + m_durationMs * 1000;
    std::vector<std::unique_ptr<RatePolicy>> parts;
    std::vector<ReactorPolicy *> policies;
    for (int i = 0; i < m_threads; ++i) {
        parts.push_back(std::make_unique<RatePolicy>(interval, end));
        policies.push_back(parts.back().get());
    }
    runScheduledThreads(
        m_options, target, start, end, [&](int j) { return double(start) + double(j) * step; },
        policies, m_stop);
    for (auto &part : parts) {
        result.total.merge(part->result);
        result.uncorrected.merge(part->uncorrected);
        result.late += part->late;
        result.missed += part->missed;
        result.perThread.push_back(std::move(part->result));
    }
    result.total.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.total.streams = m_options.streamsPerConnection();
    result.total.elapsedMicros = monotonicMicros() - start;
    return result;
}

} // namespace servelab::client
