// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"
#include "serveroptions.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace servelab::server {

struct AtomicServerStats;

// The connection count shared by the threads of one server, against its limit, and the
// server's one reserve fd (one per server, not per thread: a pool of 200 threads would spend
// 200 fds on it).
class ConnectionLimit
{
public:
    explicit ConnectionLimit(int max) : m_max(max) {}
    ~ConnectionLimit();
    // The limit `requested` resolves to under the current RLIMIT_NOFILE (see ServerOptions),
    // given the fds open now: call it once the server's own fds are all open.
    static int resolve(int requested);
    // Before the threads start, or tuned while they run: connections already open above a
    // lowered limit stay; new ones are refused until the count is below it.
    void setMax(int max) { m_max.store(max, std::memory_order_relaxed); }

    bool tryAcquire();
    void release() { m_open.fetch_sub(1, std::memory_order_relaxed); }
    int max() const { return m_max.load(std::memory_order_relaxed); }
    int open() const { return m_open.load(std::memory_order_relaxed); }

    bool openReserve();  // false if no fd could be had for it
    void topUpReserve(); // reopens the reserve if a refusal spent it and an fd is free again
    // Spends the reserve to accept-and-close what waits on `listenFd`; returns how many.
    int refuseWaiting(int listenFd);

private:
    std::atomic<int> m_max; // < 0: unlimited
    std::atomic<int> m_open{0};
    std::mutex m_reserveMutex;
    os::UniqueFd m_reserveFd;
    std::atomic<bool> m_reserveMissing{false};
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

    bool init(); // opens the server's reserve fd when the strategy needs one

    struct Accepted
    {
        int fd = -1;                       // >= 0: admitted, counted, ready to serve
        std::chrono::milliseconds pause{}; // > 0: out of fds or refusing: stop accepting this long
    };
    // After refusing at the connection limit, a thread stops accepting for this long (the
    // newcomers wait in the backlog, then are admitted or refused in one batch): a client that
    // reconnects at once when refused would otherwise keep a core busy accepting and closing
    // (1,000 of them made 16,700 refusals a second, 38 % of a core). Models that accept
    // through adopt() (io_uring, Qt) pause themselves with it.
    static std::chrono::milliseconds refusalPause();
    // Accepts the next connection every event model would serve: refused ones (over the limit)
    // are closed here, EMFILE goes through the strategy. fd < 0: nothing (more) to accept now.
    Accepted acceptOne(int listenFd, bool tcpNoDelay);
    // A connection was just accepted: true if it may be served, else it has been closed.
    bool admit(int fd);
    // A connection accepted by other means (io_uring): admitted, counted and set up as
    // acceptOne() does; false if it was refused (and closed).
    bool adopt(int fd, bool tcpNoDelay);
    void released();
    // accept() failed with EMFILE/ENFILE. Returns how long to stop accepting (0: not at all).
    std::chrono::milliseconds onExhausted(int listenFd);

private:
    struct RateLimited
    {
        std::chrono::steady_clock::time_point last;
        std::uint64_t count = 0;
        bool due(); // counts one event; true when a report is due (then resets the count)
    };

    AcceptStrategy m_strategy;
    ConnectionLimit &m_limit;
    AtomicServerStats &m_stats;
    RateLimited m_emfileLog;
    RateLimited m_refusedLog;
};

} // namespace servelab::server
