// SPDX-License-Identifier: Apache-2.0
#include "durationclient.h"

#include "loadloop.h"
#include "metrics/clock.h"
#include "requesttarget.h"

#include <thread>
#include <unistd.h>

namespace servelab::client {

DurationClient::DurationClient(ClientOptions options, int threads, std::int64_t durationMs)
    : m_options(std::move(options)), m_threads(threads), m_durationMs(durationMs)
{
    // wrk keeps every connection alive, unless the https handshake policy makes a new one for
    // every request.
    m_options.keepAlive = m_options.tls.policy == HandshakePolicy::KeepAlive;
}

void DurationClient::stop()
{
    m_stop.raise();
}

DurationClient::Result DurationClient::run()
{
    Result result;
    result.total.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.total.streams = m_options.streamsPerConnection();
    if (m_threads < 1 || m_options.concurrency < m_threads || m_durationMs <= 0) {
        result.total.fatalError =
            "the duration must be positive and every thread needs a connection (c >= t >= 1)";
        return result;
    }
    RequestTarget target;
    if (!m_stop.ready(&result.total.fatalError) ||
        !target.prepare(m_options, &result.total.fatalError))
        return result;
    const std::int64_t start = metrics::monotonicMicros();
    const std::int64_t end = start + m_durationMs * 1000;
    UntilBudget budget(end);
    result.perThread.resize(static_cast<std::size_t>(m_threads));
    std::vector<std::thread> threads;
    for (int i = 0; i < m_threads; ++i) {
        const int connections =
            threadShare(m_options.concurrency, m_threads, i) * m_options.streamsPerConnection();
        threads.emplace_back([&, i, connections] {
            const LoadLoop loop{
                .options = m_options,
                .target = target,
                .connections = static_cast<std::size_t>(connections),
                .budget = budget,
                .start = start,
                .deadline = end,
                .abortInFlight = false,
                .thread = i,
            };
            result.perThread[static_cast<std::size_t>(i)] = loop.run(m_stop);
        });
    }
    for (auto &thread : threads)
        thread.join();
    for (const auto &part : result.perThread)
        result.total.merge(part);
    result.total.concurrency = m_options.requestSlots(); // in flight: HTTP/2 streams
    result.total.streams = m_options.streamsPerConnection();
    result.total.elapsedMicros = metrics::monotonicMicros() - start;
    return result;
}

} // namespace servelab::client
