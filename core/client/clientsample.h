// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "latencyhistogram.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

namespace servelab::client {

// What one client thread did in one interval (about 100 ms), published by the thread itself:
// deltas of its counters and the latency histogram of the interval. The hot path does not see
// it: the thread compares its totals with the copy it kept at the last sample.
struct ClientSample
{
    int thread = 0;
    std::int64_t endMicros = 0;      // since the run started
    std::int64_t intervalMicros = 0; // length of this interval
    std::uint64_t completed = 0;
    std::uint64_t ok = 0;
    std::uint64_t failed = 0;
    std::uint64_t bytesRead = 0;
    int openConnections = 0; // at the end of the interval
    LatencyHistogram latency;
};

// The samples of all threads summed per interval: the threads sample on one grid from the
// run's start, so samples that end in the same period slot are one interval. In time order.
std::vector<ClientSample> sumByInterval(const std::vector<ClientSample> &samples);

// Where samples go. publish() is called from the client threads, every ~100 ms each.
class SampleSink
{
public:
    virtual ~SampleSink() = default;
    virtual void publish(ClientSample sample) = 0;
};

// A sink a consumer polls (the runner, the UI timer): one mutex, taken once per sample by a
// client thread and once per drain by the consumer.
class SampleQueue final : public SampleSink
{
public:
    void publish(ClientSample sample) override;
    std::vector<ClientSample> drain();

private:
    std::mutex m_mutex;
    std::deque<ClientSample> m_samples;
};

} // namespace servelab::client
