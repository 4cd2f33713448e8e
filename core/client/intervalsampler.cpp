// SPDX-License-Identifier: Apache-2.0
#include "intervalsampler.h"

namespace servelab::client {

IntervalSampler::IntervalSampler(SampleSink *sink, int thread, std::int64_t startMicros)
    : m_sink(sink), m_thread(thread), m_start(startMicros), m_last(startMicros),
      m_next(startMicros + periodMicros)
{}

void IntervalSampler::publish(const LoadResult &totals, int openConnections, std::int64_t nowMicros)
{
    if (!m_sink)
        return;
    ClientSample sample;
    sample.thread = m_thread;
    sample.endMicros = nowMicros - m_start;
    sample.intervalMicros = nowMicros - m_last;
    sample.completed = totals.completed - m_previous.completed;
    sample.ok = totals.ok - m_previous.ok;
    sample.failed = totals.failed() - m_previous.failed();
    sample.bytesRead = totals.bytesRead - m_previous.bytesRead;
    sample.openConnections = openConnections;
    sample.latency = totals.latency.since(m_previous.latency);
    m_sink->publish(std::move(sample));
    m_previous = totals; // a copy: the histogram is a few thousand counters, ten times a second
    m_last = nowMicros;
    // The next one on the grid from the start, so that the threads' samples line up.
    m_next += periodMicros * ((nowMicros - m_next) / periodMicros + 1);
}

} // namespace servelab::client
