// SPDX-License-Identifier: Apache-2.0
#include "loadloop.h"

#include "clienthabits.h"
#include "clientreactor.h"
#include "metrics/clock.h"

#include <vector>

namespace servelab::client {

using metrics::monotonicMicros;

bool CountBudget::take(std::int64_t)
{
    std::uint64_t left = m_left.load(std::memory_order_relaxed);
    while (left > 0)
        if (m_left.compare_exchange_weak(left, left - 1, std::memory_order_relaxed))
            return true;
    return false;
}

bool UntilBudget::exhausted() const
{
    return monotonicMicros() >= m_end;
}

namespace {

// Closed and duration: a request goes while the budget allows; its connection's next one at
// once, or after the think time.
class BudgetPolicy final : public ReactorPolicy
{
public:
    BudgetPolicy(const LoadLoop &loop, ClientHabits &habits) : m_loop(loop), m_habits(habits) {}

    bool onSend(ReactorSlot &, std::int64_t now) override
    {
        if (!m_loop.budget.take(now))
            return false;
        ++m_issued;
        return true;
    }
    void onEnd(ReactorSlot &slot, const ClientExchange::Outcome &o, std::int64_t now) override
    {
        const ClientExchange &c = *slot.connection;
        m_result.countRequest(o.failure(), c.bytesRead(), c.bodyBytes(), now - c.startedAt());
        if (m_loop.options.connectionTimes && o.type == ClientExchange::Outcome::Completed) {
            m_result.connectTimes.record(c.connectedAt() - c.startedAt());
            m_result.processingTimes.record(now - c.connectedAt());
            m_result.waitingTimes.record(c.firstByteAt() - c.sentAt());
        }
    }
    void schedule(ReactorSlot &slot, std::int64_t now) override
    {
        slot.due = double(now);
        if (m_habits.thinks())
            slot.due += m_habits.thinkMicros();
    }
    bool done() const override
    {
        return m_result.completed == m_issued && m_loop.budget.exhausted();
    }
    // Requests in flight at the end count once as aborted_at_deadline (ab -t), or are dropped
    // and only counted in `unfinished` (wrk).
    void onCutOff(ReactorSlot &slot, bool inFlight) override
    {
        if (inFlight && m_loop.abortInFlight)
            onEnd(slot, {ClientExchange::Outcome::Failed, ErrorKind::AbortedAtDeadline},
                  monotonicMicros());
        else if (inFlight)
            ++m_result.unfinished;
    }
    LoadResult &counted() override { return m_result; }

private:
    const LoadLoop &m_loop;
    ClientHabits &m_habits;
    LoadResult m_result;
    std::uint64_t m_issued = 0;
};

} // namespace

LoadResult LoadLoop::run(const StopSignal &stop) const
{
    ClientHabits habits(options, target, thread);
    BudgetPolicy policy(*this, habits);
    const ClientReactor reactor{.options = options,
                                .target = target,
                                .firstDue = std::vector<double>(connections, double(start)),
                                .start = start,
                                .end = deadline,
                                .thread = thread};
    reactor.run(policy, habits, stop);
    return std::move(policy.counted());
}

} // namespace servelab::client
