// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "errorkind.h"
#include "latencyhistogram.h"
#include "metrics/resourceuse.h"

#include <cstdint>
#include <optional>
#include <string>

namespace servelab::client {

// What one load run measured. A value type: merged across threads, sent across queued signals.
struct LoadResult
{
    std::uint64_t completed = 0; // requests that got an answer or failed: ab's "Complete requests"
    std::uint64_t ok = 0;        // 2xx/3xx with the right framing
    ErrorCounts errors{};
    std::uint64_t bytesRead = 0; // heads and bodies: ab's "Total transferred"
    std::uint64_t bodyBytes = 0; // ab's "HTML transferred"
    std::uint64_t connects = 0;
    // Requests in flight when a duration run ended: neither completed nor errors (wrk).
    std::uint64_t unfinished = 0;
    std::int64_t elapsedMicros = 0;
    int concurrency = 1;      // requests in flight at once: connections, or HTTP/2 streams
    int streams = 1;          // HTTP/2: the requests in flight per connection
    LatencyHistogram latency; // µs from connect (or send, on a kept-alive connection) to last byte
    // ab's Connection Times (closed model only, ClientOptions::connectionTimes), µs: connect
    // (start to connected), processing (connected to last byte), waiting (request written to
    // first byte). Total is `latency`.
    LatencyHistogram connectTimes;
    LatencyHistogram processingTimes;
    LatencyHistogram waitingTimes;
    // https: handshakes made, those the library says resumed a session, and how long each took
    // (µs from the TCP connection to the handshake's end: ab's Connection Times "TLS" row).
    std::uint64_t tlsHandshakes = 0;
    std::uint64_t tlsResumed = 0;
    LatencyHistogram tlsTimes;
    // OpenSSL's reason for the first tls_certificate and tls_handshake error, if any.
    std::string tlsProblem;
    std::string fatalError; // set when the run could not start at all
    // What the client's threads cost the machine over the whole run (ramp-up and down
    // included), summed, and how many threads it ran.
    metrics::ResourceUse clientUse;
    int clientThreads = 0;

    std::uint64_t failed() const;
    std::uint64_t errorCount(ErrorKind kind) const
    {
        return errors[static_cast<std::size_t>(kind)];
    }
    void countError(ErrorKind kind) { ++errors[static_cast<std::size_t>(kind)]; }
    // A request ended, without an error or with one: counts it and its bytes, and records its
    // latency when the server answered (ok, 4xx or 5xx). Returns whether it did.
    bool countRequest(std::optional<ErrorKind> error, std::uint64_t bytesRead,
                      std::uint64_t bodyBytes, std::int64_t latencyMicros);
    double elapsedSeconds() const { return static_cast<double>(elapsedMicros) / 1e6; }
    double requestsPerSecond() const;
    // ab's "Transfer rate": every byte read, in KiB (1024 bytes), over the whole run.
    double kibPerSecond() const;
    // The most frequent error kind, for one-line reasons; only meaningful when failed() > 0.
    ErrorKind dominantError() const;
    void merge(const LoadResult &other);
};

} // namespace servelab::client
