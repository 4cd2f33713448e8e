// SPDX-License-Identifier: Apache-2.0
#include "rampclient.h"

#include "metrics/clock.h"
#include "requesttarget.h"
#include "scheduledloop.h"

#include <cmath>
#include <memory>
#include <unistd.h>
#include <unordered_map>

namespace servelab::client {

namespace {

// One thread's users: each waits its think time after a response (or its cycle time after a
// start), and only what happens inside [steadyStart, steadyEnd] counts.
class RampPolicy final : public ReactorPolicy
{
public:
    RampPolicy(const ThinkTime &think, std::int64_t steadyStart, std::int64_t steadyEnd,
               std::uint64_t seed)
        : m_think(think), m_steadyStart(steadyStart), m_steadyEnd(steadyEnd), m_random(seed)
    {}

    bool onSend(ReactorSlot &s, std::int64_t now) override
    {
        auto &previous = m_previous[&s];
        // The gap this user actually left: after its last response (think time) or since its
        // last start (cycle time), measured where both ends are in the steady state.
        const std::int64_t from = m_think.cycle ? previous.start : previous.end;
        if (from >= m_steadyStart && now <= m_steadyEnd && previous.end > 0) {
            thinkMicros += double(now - from);
            ++thinkSamples;
        }
        previous.start = now;
        return true;
    }
    void onEnd(ReactorSlot &s, const ClientExchange::Outcome &o, std::int64_t now) override
    {
        const ClientExchange &c = *s.connection;
        m_previous[&s].end = now;
        const double wait = m_think.sampleMicros(m_random);
        s.due = m_think.cycle ? std::max(double(now), double(s.sentAt) + wait) : double(now) + wait;
        all.countRequest(o.failure(), c.bytesRead(), c.bodyBytes(), now - s.sentAt);
        if (s.sentAt < m_steadyStart || now > m_steadyEnd) {
            ++outside;
            return;
        }
        steady.countRequest(o.failure(), c.bytesRead(), c.bodyBytes(), now - s.sentAt);
    }
    void onCutOff(ReactorSlot &, bool inFlight) override
    {
        if (inFlight)
            ++steady.unfinished; // in ramp-down: never counted, noted for completeness
    }

    LoadResult &counted() override { return steady; }
    // The live samples show the ramps too: a chart of the run starts at its start.
    const LoadResult &sampled() override { return all; }

    LoadResult steady;
    LoadResult all; // every request, in or out of the steady state
    std::uint64_t outside = 0;
    double thinkMicros = 0;
    std::uint64_t thinkSamples = 0;

private:
    struct Previous
    {
        std::int64_t start = 0;
        std::int64_t end = 0;
    };
    const ThinkTime &m_think;
    std::int64_t m_steadyStart;
    std::int64_t m_steadyEnd;
    std::mt19937_64 m_random;
    std::unordered_map<const ReactorSlot *, Previous> m_previous;
};

} // namespace

RampClient::RampClient(ClientOptions options, int threads, Phases phases, ThinkTime think)
    : m_options(std::move(options)), m_threads(threads), m_phases(phases), m_think(think)
{}

void RampClient::stop()
{
    m_stop.raise();
}

RampClient::Result RampClient::run()
{
    Result result;
    result.users = m_options.requestSlots();              // HTTP/2: a user per stream
    result.steady.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.steady.streams = m_options.streamsPerConnection();
    result.thinkTargetMs = m_think.targetMeanMs();
    if (m_threads < 1 || m_options.concurrency < m_threads || m_phases.steadyMs <= 0 ||
        m_phases.rampUpMs < 0 || m_phases.rampDownMs < 0) {
        result.steady.fatalError = "the steady state must last, ramps cannot be negative, and "
                                   "every thread needs a user (c >= t >= 1)";
        return result;
    }
    RequestTarget target;
    if (!m_stop.ready(&result.steady.fatalError) ||
        !target.prepare(m_options, &result.steady.fatalError))
        return result;
    const std::int64_t start = metrics::monotonicMicros();
    const std::int64_t steadyStart = start + m_phases.rampUpMs * 1000;
    const std::int64_t steadyEnd = steadyStart + m_phases.steadyMs * 1000;
    const std::int64_t end = steadyEnd + m_phases.rampDownMs * 1000;
    // Users start spread over the first second of the run (or the ramp-up, if shorter), not
    // all in the same instant.
    const double spread =
        double(std::min<std::int64_t>(std::max<std::int64_t>(m_phases.rampUpMs, 0), 1000)) * 1000;
    std::vector<std::unique_ptr<RampPolicy>> parts;
    std::vector<ReactorPolicy *> policies;
    for (int i = 0; i < m_threads; ++i) {
        // A fixed seed per thread: the same think times from run to run.
        parts.push_back(std::make_unique<RampPolicy>(m_think, steadyStart, steadyEnd,
                                                     0x5e7e1ab + std::uint64_t(i)));
        policies.push_back(parts.back().get());
    }
    runScheduledThreads(
        m_options, target, start, end,
        [&](int j) {
            return double(start) + spread * double(j) / double(m_options.requestSlots());
        },
        policies, m_stop);
    double thinkMicros = 0;
    std::uint64_t thinkSamples = 0;
    for (const auto &part : parts) {
        result.steady.merge(part->steady);
        result.outsideSteady += part->outside;
        thinkMicros += part->thinkMicros;
        thinkSamples += part->thinkSamples;
    }
    result.steady.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.steady.streams = m_options.streamsPerConnection();
    result.steady.elapsedMicros =
        std::min(metrics::monotonicMicros(), steadyEnd) - steadyStart; // stop() may cut it short
    if (result.steady.elapsedMicros <= 0)
        return result;
    result.thinkActualMs = thinkSamples ? thinkMicros / double(thinkSamples) / 1000 : 0;
    // In cycle mode the measured gap is start to start, which already includes R.
    const double perUserSeconds =
        m_think.cycle ? result.thinkActualMs / 1000
                      : (result.steady.latency.mean() / 1e6 + result.thinkActualMs / 1000);
    result.littleUsers = result.steady.requestsPerSecond() * perUserSeconds;
    result.littlePass = std::abs(result.littleUsers - double(result.users)) <=
                        Result::tolerance * double(result.users);
    if (result.thinkTargetMs > 0)
        result.thinkPass = std::abs(result.thinkActualMs - result.thinkTargetMs) <=
                           Result::tolerance * result.thinkTargetMs;
    return result;
}

} // namespace servelab::client
