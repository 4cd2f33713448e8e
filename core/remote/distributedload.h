// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clocksync.h"

#include "lab/results/pointresult.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <vector>

namespace servelab::client {
class SampleSink;
}
namespace servelab::lab {
struct SweepSpec;
}

namespace servelab::remote {

class AgentChannel;

// One point's load made by several load agents at once. The spec is split exactly
// (splitShares); each agent's clock offset is measured (minimum-RTT pings); every share is
// sent with one start time T0, which each agent waits for on its own monotonic clock; the
// results are merged into one point — histograms bucket by bucket, samples on the same 100 ms
// grid from T0 — and each agent's part is kept (shares()).
//
// An agent that cannot make T0, or that is lost mid-point (its connection ends, or it is
// silent for lostAfterMs), makes the point DNF with its name and the moment; the others are
// cancelled at once, and what they measured is kept in shares(), marked unfinished. The
// channels stay open: the caller owns them.
class DistributedLoad
{
public:
    struct Agent
    {
        AgentChannel *channel = nullptr;
        double weight = 1;
    };
    struct Share
    {
        QString agent; // the channel's name: "load agent 2 (load2)"
        lab::PointResult point;
        ClockOffset clock;
        qint64 clockDriftNs = 0; // the offset measured after the point, less the one before
        qint64 startedNs = 0;    // on the coordinator's clock
        qint64 endedNs = 0;
        bool finished = false; // its load_done came, and it was not cut short
    };

    explicit DistributedLoad(std::vector<Agent> agents);

    // The point: `spec`'s client at file `size` on host:port, split among the agents. The
    // merged figures, or DNF with the reason; never throws the partial data away.
    lab::PointResult run(const lab::SweepSpec &spec, quint64 size, const QString &host,
                         quint16 port);
    // From any thread: the agents are told to stop, and run() returns with what they made.
    void cancel() { m_cancelled = true; }

    const QList<Share> &shares() const { return m_shares; }
    // The spread of the shares' real starts (minus their planned phases), coordinator clock.
    qint64 startSkewNs() const { return m_startSkewNs; }
    // How long before T0 the shares are sent (default: 300 ms, or 4 round trips if longer).
    // 0 sends them with T0 already past: every agent is late (the tests' late agent).
    void setLeadMs(int ms) { m_leadMs = ms; }
    // Where the agents' samples go while the point runs (each tick's, from T0, without
    // histograms): a live view, told T0 (µs, this clock) first by `started`. Null: nowhere.
    // The merged point has them all, whole.
    void setLiveSink(client::SampleSink *live, std::function<void(qint64 t0Micros)> started = {})
    {
        m_live = live;
        m_started = std::move(started);
    }

private:
    bool measureClocks(QString *why);
    void wait(const lab::SweepSpec &spec, qint64 t0, lab::PointResult *point);
    void cancelAll();
    void publishTick(const QJsonObject &tick, const Share &share, qint64 t0) const;
    void merge(qint64 t0, lab::PointResult *point) const;

    std::vector<Agent> m_agents;
    QList<int> m_active; // the agents with a share, in share order
    QList<Share> m_shares;
    std::atomic<bool> m_cancelled{false};
    int m_leadMs = -1;
    client::SampleSink *m_live = nullptr;
    std::function<void(qint64)> m_started;
    qint64 m_startSkewNs = 0;
};

} // namespace servelab::remote
