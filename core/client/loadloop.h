// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "loadresult.h"
#include "requesttarget.h"
#include "stopsignal.h"

#include <atomic>
#include <cstdint>

namespace servelab::client {

// Decides whether one more request may start; shared by the threads of a run.
class RequestBudget
{
public:
    virtual ~RequestBudget() = default;
    virtual bool take(std::int64_t nowMicros) = 0; // true: start one more request
    virtual bool exhausted() const = 0;            // no request will be allowed any more
};

// ab: a fixed number of requests in all.
class CountBudget final : public RequestBudget
{
public:
    explicit CountBudget(std::uint64_t requests) : m_left(requests) {}
    bool take(std::int64_t nowMicros) override;
    bool exhausted() const override { return m_left.load(std::memory_order_relaxed) == 0; }

private:
    std::atomic<std::uint64_t> m_left;
};

// wrk: requests until a moment (µs, monotonic).
class UntilBudget final : public RequestBudget
{
public:
    explicit UntilBudget(std::int64_t endMicros) : m_end(endMicros) {}
    bool take(std::int64_t nowMicros) override { return nowMicros < m_end; }
    bool exhausted() const override;

private:
    std::int64_t m_end;
};

// Connections (or users) spread over threads as every model does: the first total % threads
// threads take one more.
inline int threadShare(int total, int threads, int thread)
{
    return total / threads + (thread < total % threads ? 1 : 0);
}

// One client thread: `connections` connections in one epoll set, each starting a new request as
// soon as its last one is done, while the budget allows, until `deadline` (µs) or stop.
struct LoadLoop
{
    const ClientOptions &options;
    const RequestTarget &target;
    std::size_t connections = 1; // slots: HTTP/2 streams, `streams` to a connection
    RequestBudget &budget;
    std::int64_t start = 0;    // µs, monotonic: elapsed time counts from here
    std::int64_t deadline = 0; // µs, monotonic
    // At the end, requests still in flight count once as aborted_at_deadline (ab -t), or are
    // dropped and only counted in `unfinished` (wrk: a duration run ends, it does not fail).
    bool abortInFlight = true;
    int thread = 0; // the thread's number in its ClientSamples

    // `stop` (shared by the run's threads) is checked after every wake-up and watched, so
    // that raising it takes effect at once.
    LoadResult run(const StopSignal &stop) const;
};

} // namespace servelab::client
