// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "latencyhistogram.h"
#include "loadresult.h"
#include "stopsignal.h"

#include <vector>

namespace servelab::client {

// The `rate` model with wrk2's semantics: a constant offered rate of `ratePerSecond` requests,
// spread evenly over `concurrency` kept-alive connections on `threads` threads, for
// `durationMs`. Each request has an intended send time on its connection's schedule; when the
// connection is still busy with the previous one, the request goes out late. Latency is kept
// twice: from the intended time (corrected for coordinated omission: LoadResult::latency) and
// from the actual send (uncorrected).
class RateClient
{
public:
    struct Result
    {
        LoadResult total;                  // latency: corrected, from the intended send time
        LatencyHistogram uncorrected;      // from the moment the request actually went out
        std::uint64_t late = 0;            // requests sent after their slot (the server lagged)
        std::uint64_t missed = 0;          // slots due before the end that never got a request
        std::vector<LoadResult> perThread; // each thread's own (corrected latency)
        double offeredPerSecond = 0;
    };

    RateClient(ClientOptions options, int threads, std::int64_t durationMs, double ratePerSecond);
    RateClient(const RateClient &) = delete;
    RateClient &operator=(const RateClient &) = delete;

    Result run();
    void stop();

private:
    ClientOptions m_options;
    int m_threads;
    std::int64_t m_durationMs;
    double m_rate;
    StopSignal m_stop;
};

} // namespace servelab::client
