// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientsample.h"
#include "loadresult.h"

#include <cstdint>

namespace servelab::client {

// Turns one thread's running totals into ClientSamples every `periodMicros`: the thread's loop
// asks due() after each wake-up (which comes at least every 100 ms) and publishes once more at
// the end, so that the samples add up to the totals exactly.
class IntervalSampler
{
public:
    static constexpr std::int64_t periodMicros = 100'000;

    IntervalSampler(SampleSink *sink, int thread, std::int64_t startMicros);
    bool due(std::int64_t nowMicros) const { return m_sink && nowMicros >= m_next; }
    // A sample up to now; call when due(), and once at the end.
    void publish(const LoadResult &totals, int openConnections, std::int64_t nowMicros);

private:
    SampleSink *m_sink;
    int m_thread;
    std::int64_t m_start;
    std::int64_t m_last;
    std::int64_t m_next;
    LoadResult m_previous;
};

} // namespace servelab::client
