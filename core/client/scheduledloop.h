// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientconnection.h"
#include "clientoptions.h"
#include "loadresult.h"
#include "requesttarget.h"
#include "stopsignal.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace servelab::client {

// One connection of a scheduled model and when its next request is due.
struct ScheduledSlot
{
    std::unique_ptr<ClientConnection> connection;
    double due = 0;          // µs, monotonic: when the next request is meant to go out
    std::int64_t sentAt = 0; // µs: when the current one actually went out
};

// What a scheduled model decides: what a send and an end mean, and when the next request is due.
class SchedulePolicy
{
public:
    virtual ~SchedulePolicy() = default;
    // The request of `slot` goes out now (its intended time was slot.due).
    virtual void onSend(ScheduledSlot &slot, std::int64_t now) = 0;
    // It ended (answered, failed or timed out): count it and set slot.due for the next one.
    virtual void onEnd(ScheduledSlot &slot, const ClientConnection::Outcome &outcome,
                       std::int64_t now) = 0;
    // The run ended: `inFlight` tells whether the slot's request was cut off.
    virtual void onCutOff(ScheduledSlot &slot, bool inFlight) = 0;
    // What the model counts; the loop adds the connects made, the time it ran and, if it could
    // not start, why.
    virtual LoadResult &counted() = 0;
    // The source of the live samples: what is counted, unless the model counts only part of
    // the run (ramp: the steady state).
    virtual const LoadResult &sampled() { return counted(); }
};

// One thread's loop for models where requests go out at scheduled times (rate: a fixed
// schedule; ramp: after each user's think time): sends what is due on idle connections, waits
// to the microsecond (epoll_pwait2) for the next due time or an event, until `end` or stop.
// Slots come with their first due time; connections are made here.
struct ScheduledLoop
{
    const ClientOptions &options;
    const RequestTarget &target;
    std::vector<double> firstDue; // one per connection
    std::int64_t start = 0;       // µs: samples count from here
    std::int64_t end = 0;
    int thread = 0; // the thread's number in its ClientSamples

    void run(SchedulePolicy &policy, const StopSignal &stop) const;
};

// A scheduled run on `policies.size()` threads, one policy each: connections spread with
// threadShare(), connection j (counted across threads) first due at firstDue(j). Returns when
// every thread has ended.
void runScheduledThreads(const ClientOptions &options, const RequestTarget &target,
                         std::int64_t start, std::int64_t end,
                         const std::function<double(int)> &firstDue,
                         const std::vector<SchedulePolicy *> &policies, const StopSignal &stop);

} // namespace servelab::client
