#pragma once

#include "serveroptions.h"

#include <atomic>
#include <chrono>
#include <cstdint>

namespace servelab::server {

struct AtomicServerStats;

// The connection count shared by the threads of one server, against its limit.
class ConnectionLimit
{
public:
    explicit ConnectionLimit(int max) : m_max(max) {}
    // The limit `requested` resolves to under the current RLIMIT_NOFILE (see ServerOptions).
    static int resolve(int requested, int threads);

    bool tryAcquire();
    void release() { m_open.fetch_sub(1, std::memory_order_relaxed); }
    int max() const { return m_max; }
    int open() const { return m_open.load(std::memory_order_relaxed); }

private:
    const int m_max; // < 0: unlimited
    std::atomic<int> m_open{0};
};

// Decides, for one server thread, what happens to accepted connections and to EMFILE: the
// connection limit, the accept strategy, and logs of both at most once a second with a count.
class AcceptGuard
{
public:
    AcceptGuard(AcceptStrategy strategy, ConnectionLimit &limit, AtomicServerStats &stats);
    AcceptGuard(const AcceptGuard &) = delete;
    AcceptGuard &operator=(const AcceptGuard &) = delete;
    ~AcceptGuard();

    bool init(); // opens the reserve fd when the strategy needs one
    // A connection was just accepted: true if it may be served, else it has been closed.
    bool admit(int fd);
    void released();
    // accept() failed with EMFILE/ENFILE. Returns how long to stop accepting (0: not at all).
    std::chrono::milliseconds onExhausted(int listenFd);

private:
    void reopenReserve();

    struct RateLimited
    {
        std::chrono::steady_clock::time_point last;
        std::uint64_t count = 0;
        bool due(); // counts one event; true when a report is due (then resets the count)
    };

    AcceptStrategy m_strategy;
    ConnectionLimit &m_limit;
    AtomicServerStats &m_stats;
    int m_reserveFd = -1;
    RateLimited m_emfileLog;
    RateLimited m_refusedLog;
};

} // namespace servelab::server
