// SPDX-License-Identifier: Apache-2.0
#include "closedclient.h"

#include "loadloop.h"
#include "metrics/clock.h"
#include "requesttarget.h"

#include <limits>
#include <unistd.h>

namespace servelab::client {

ClosedClient::ClosedClient(ClientOptions options) : m_options(std::move(options)) {}

void ClosedClient::stop()
{
    m_stop.raise();
}

LoadResult ClosedClient::run()
{
    m_options.connectionTimes = true; // ab prints them
    m_options.abHeaders = true;       // and sends User-Agent and Accept
    LoadResult result;
    result.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.streams = m_options.streamsPerConnection();
    if (m_options.requests == 0 || m_options.concurrency < 1) {
        result.fatalError = "the number of requests and the concurrency must be at least 1";
        return result;
    }
    RequestTarget target;
    if (!m_stop.ready(&result.fatalError) || !target.prepare(m_options, &result.fatalError))
        return result;
    CountBudget budget(m_options.requests);
    const std::int64_t start = metrics::monotonicMicros();
    const LoadLoop loop{
        .options = m_options,
        .target = target,
        .connections = static_cast<std::size_t>(std::min<std::uint64_t>(
            m_options.requests, static_cast<std::uint64_t>(m_options.requestSlots()))),
        .budget = budget,
        .start = start,
        .deadline = m_options.deadlineMs > 0 ? start + m_options.deadlineMs * 1000
                                             : std::numeric_limits<std::int64_t>::max(),
        .abortInFlight = true,
    };
    result = loop.run(m_stop);
    result.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.streams = m_options.streamsPerConnection();
    return result;
}

} // namespace servelab::client
