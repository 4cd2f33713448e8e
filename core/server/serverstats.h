// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace servelab::server {

// Totals since start. Each event-loop thread owns one block and is its only writer.
struct ServerStats
{
    std::uint64_t connectionsAccepted = 0;
    std::uint64_t requests = 0;
    std::uint64_t responses2xx = 0;
    std::uint64_t responses4xx = 0;
    std::uint64_t responses5xx = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t acceptEmfile = 0;
    std::uint64_t refused = 0; // accepted and closed at once: over the limit, or out of fds
    std::uint64_t connectionsClosed = 0;
    std::uint64_t downloadsStarted = 0; // responses that began to be written
    std::uint64_t downloadsFinished = 0;
    std::uint64_t queued = 0; // waiting for a worker now (poller, blocking); a gauge, not a total
    // poller: hand-offs from the watcher to the pool, and the time they waited in the queue.
    std::uint64_t handoffs = 0;
    std::uint64_t handoffWaitMicros = 0; // summed
    std::uint64_t handoffWaitMaxMicros = 0;
    // https: handshakes completed, those that resumed a session (the library's word, not
    // assumed), those that failed (plaintext, a bad client, the deadline), connections whose
    // sending side the kernel took (kernel TLS) and those that asked for it and did not get it
    // (closed: never served by userspace TLS instead).
    std::uint64_t tlsHandshakes = 0;
    std::uint64_t tlsResumed = 0;
    std::uint64_t tlsFailed = 0;
    std::uint64_t tlsKernel = 0;
    std::uint64_t tlsKernelMissed = 0;
    // HTTP/2 (--http2): streams the clients opened, frames received, times a response waited on
    // a shut flow-control window, GOAWAY and RST_STREAM frames either way.
    std::uint64_t h2Streams = 0;
    std::uint64_t h2Frames = 0;
    std::uint64_t h2WindowStalls = 0;
    std::uint64_t h2Goaways = 0;
    std::uint64_t h2Resets = 0;

    std::uint64_t connectionsOpen() const { return connectionsAccepted - connectionsClosed; }
    std::uint64_t activeDownloads() const { return downloadsStarted - downloadsFinished; }

    ServerStats &operator+=(const ServerStats &other);

    // The counters as one line, "stats connections=12 requests=340 ...": what `servelab-cli
    // serve`'s control channel answers to `stats` (lab::ControlServer), and lab::IsolatedServer
    // reads back from its child.
    std::string toLine() const;
    // Nullopt when `line` is not a stats line; keys it does not know are skipped, missing ones 0.
    static std::optional<ServerStats> fromLine(std::string_view line);
};

// The per-thread counters: written with relaxed stores by their thread, read from any thread.
struct AtomicServerStats
{
    std::atomic<std::uint64_t> connectionsAccepted{0};
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> responses2xx{0};
    std::atomic<std::uint64_t> responses4xx{0};
    std::atomic<std::uint64_t> responses5xx{0};
    std::atomic<std::uint64_t> bytesSent{0};
    std::atomic<std::uint64_t> acceptEmfile{0};
    std::atomic<std::uint64_t> refused{0};
    std::atomic<std::uint64_t> connectionsClosed{0};
    std::atomic<std::uint64_t> downloadsStarted{0};
    std::atomic<std::uint64_t> downloadsFinished{0};
    std::atomic<std::uint64_t> handoffs{0};
    std::atomic<std::uint64_t> handoffWaitMicros{0};
    std::atomic<std::uint64_t> handoffWaitMaxMicros{0};
    std::atomic<std::uint64_t> tlsHandshakes{0};
    std::atomic<std::uint64_t> tlsResumed{0};
    std::atomic<std::uint64_t> tlsFailed{0};
    std::atomic<std::uint64_t> tlsKernel{0};
    std::atomic<std::uint64_t> tlsKernelMissed{0};
    std::atomic<std::uint64_t> h2Streams{0};
    std::atomic<std::uint64_t> h2Frames{0};
    std::atomic<std::uint64_t> h2WindowStalls{0};
    std::atomic<std::uint64_t> h2Goaways{0};
    std::atomic<std::uint64_t> h2Resets{0};

    static void bump(std::atomic<std::uint64_t> &counter, std::uint64_t by = 1)
    {
        counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
    void countResponse(int status);
    ServerStats snapshot() const;
};

// One counter, declared once: its key in the stats line and where it lives in both blocks.
// operator+=, snapshot(), toLine() and fromLine() walk these rows, so a new counter is a member
// in each block and a row (serverstats.cpp).
struct ServerStatsField
{
    const char *key;
    std::uint64_t ServerStats::*total;
    std::atomic<std::uint64_t> AtomicServerStats::*counter; // nullptr: a gauge set elsewhere
    bool maximum = false; // merged by taking the larger, not by adding
    // A total that grows over time: over a point, its difference; over repetitions, its sum.
    // Otherwise a level (a maximum, a gauge): as read at the end, the larger of two.
    bool isTotal() const { return counter && !maximum; }
};
std::span<const ServerStatsField> serverStatsFields();
// How many rows it has, for the tables made from it at compile time (lab::ResultColumns): a row
// added without this is a compile error in serverstats.cpp.
inline constexpr std::size_t serverStatsFieldCount = 25;

} // namespace servelab::server
