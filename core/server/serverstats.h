#pragma once

#include <atomic>
#include <cstdint>

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

    ServerStats &operator+=(const ServerStats &other);
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

    static void bump(std::atomic<std::uint64_t> &counter, std::uint64_t by = 1)
    {
        counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
    }
    void countResponse(int status);
    ServerStats snapshot() const;
};

} // namespace servelab::server
