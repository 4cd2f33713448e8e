// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientexchange.h"
#include "clientoptions.h"
#include "loadresult.h"
#include "requesttarget.h"
#include "stopsignal.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace servelab::client {

class ClientHabits;

// One request slot of a client thread (a connection; with HTTP/2 a stream of one) and when its
// next request is due.
struct ReactorSlot
{
    static constexpr double never = std::numeric_limits<double>::infinity();

    std::unique_ptr<ClientExchange> connection;
    double due = 0;          // µs, monotonic: when the next request is meant to go out
    std::int64_t sentAt = 0; // µs: when the current one actually went out
    bool waiting = false;    // in the reactor's list of idle slots due later
};

// What a load model decides, as short callbacks of the one loop (wrk's): whether a request may
// go out, what its end means and when the slot's next one is due. Closed and duration: a
// budget, the next request at once (or after a think time); rate and ramp: a schedule.
class ReactorPolicy
{
public:
    virtual ~ReactorPolicy() = default;
    // The request of `slot` goes out now (its intended time was slot.due); false: it does not,
    // nor will any more on this slot (the budget is spent).
    virtual bool onSend(ReactorSlot &slot, std::int64_t now) = 0;
    // It ended (answered, failed or timed out): count it, before the client may close the
    // connection.
    virtual void onEnd(ReactorSlot &slot, const ClientExchange::Outcome &outcome,
                       std::int64_t now) = 0;
    // Then: when the slot's next request is due (slot.due; ReactorSlot::never for none), unless
    // onEnd() set it already (the default). Due now or before, it goes at once.
    virtual void schedule(ReactorSlot &slot, std::int64_t now) { (void)slot, (void)now; }
    // Whether the run is over before its end: nothing more will go out and nothing is in
    // flight (a closed run's last answer).
    virtual bool done() const { return false; }
    // The run ended: `inFlight` tells whether the slot's request was cut off.
    virtual void onCutOff(ReactorSlot &slot, bool inFlight) = 0;
    // What the model counts; the reactor adds the connects made, the time it ran and, if it
    // could not start, why.
    virtual LoadResult &counted() = 0;
    // The source of the live samples: what is counted, unless the model counts only part of
    // the run (ramp: the steady state).
    virtual const LoadResult &sampled() { return counted(); }
};

// One client thread's loop, for every load model: its connections in one epoll set, each
// sending when its slot is due (on idle connections), waiting to the microsecond
// (epoll_pwait2) for the next due time or an event, timeouts scanned every 100 ms, samples
// published every interval, until `end` (µs, monotonic), the policy's done() or stop (watched
// in the set, so that raising it takes effect at once). Slots come with their first due time;
// connections are made here. A slot due at once after an end is sent from the event handler;
// only slots due later are scanned as the loop goes round.
struct ClientReactor
{
    const ClientOptions &options;
    const RequestTarget &target;
    // One per slot: per connection, or with HTTP/2 per stream (ClientOptions::requestSlots()), the
    // streams of a connection consecutive.
    std::vector<double> firstDue;
    std::int64_t start = 0; // µs: elapsed time and samples count from here
    std::int64_t end = 0;
    int thread = 0; // the thread's number in its ClientSamples

    void run(ReactorPolicy &policy, ClientHabits &habits, const StopSignal &stop) const;
};

} // namespace servelab::client
