// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agentlane.h"
#include "client/clientsample.h"
#include "client/loadmodel.h"
#include "client/loadresult.h"
#include "metrics/processprobe.h"
#include "metrics/resourceuse.h"
#include "pointprofile.h"
#include "server/serverstats.h"
#include "tuneevent.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <vector>

namespace servelab::lab {

// One measured point of a sweep: a target at one file size.
struct PointResult
{
    int index = 0;
    int repetition = 0; // from 0, when a point is measured more than once
    quint64 sizeBytes = 0;
    QString target;                                // the mode, e.g. "epoll+sendfile"
    QString protocol = QStringLiteral("http/1.1"); // or "h2c", "h2" (lab::Transport::protocol)
    bool dnf = false;                              // did not finish: no number, only `reason`
    QString reason;
    client::LoadModel model = client::LoadModel::Closed; // the client that measured it
    client::LoadResult load; // ramp: the steady state only; rate: latency from the intended send

    // rate (wrk2): the rate offered, the latency from each request's actual send (uncorrected;
    // load.latency is corrected for coordinated omission), requests sent late and slots missed.
    double offeredPerSecond = 0;
    client::LatencyHistogram uncorrected;
    std::uint64_t late = 0;
    std::uint64_t missed = 0;
    // ramp (faban): the requests of ramp-up and ramp-down (not counted), and faban's checks:
    // Little's law (users = X (R + Z), within 5 %) and the think time measured against the one
    // asked for.
    std::uint64_t outsideSteady = 0;
    double littleUsers = 0;
    bool littlePass = false;
    double thinkTargetMs = 0;
    double thinkActualMs = 0;
    bool thinkPass = false;

    // The timeline, on one clock (metrics::monotonicMicros): the client's 100 ms samples (all
    // threads summed) and the server process's, from `startedAtMicros`.
    std::int64_t startedAtMicros = 0;
    std::vector<client::ClientSample> clientSamples;
    std::vector<metrics::ProcessSample> serverSamples;
    // Changes made to the server while it ran (a spec's "tune"), in time order: the timelines'
    // markers.
    std::vector<TuneEvent> tuneEvents;
    // The server's own counters over the point, where ServeLab can read them (built-in targets,
    // in-process or isolated); serverCounted false otherwise. Every counter of ServerStats'
    // table (server/serverstats.cpp): each is kept, exported and merged from that table's row.
    bool serverCounted = false;
    server::ServerStats server;
    // Those counters over the point: `after` less `before`, both read where the server runs (a
    // maximum, a gauge: as `after` has it).
    void countServer(const server::ServerStats &before, const server::ServerStats &after)
    {
        serverCounted = true;
        for (const server::ServerStatsField &f : server::serverStatsFields())
            server.*f.total = f.isTotal() ? after.*f.total - before.*f.total : after.*f.total;
    }

    // What the point cost the machine: the server's processes (summed over a tree; for an
    // in-process target, the process less the client's threads) from the point's start to its
    // end, and the client's threads (load.clientUse). Unknown (-1) where it cannot be read; a
    // note says why (syscalls where perf events are not allowed).
    metrics::ResourceUse serverUse;
    QString costNote;
    // What limited the point (Bottleneck): its name ("client-bound") and the figures that
    // decided it.
    QString verdict;
    QString verdictWhy;
    // A perf profile of the server during a second pass of this load, when the spec asked.
    PointProfile profile;

    // A point whose load several hosts made (run --hosts): each load agent's part, and the
    // spread of their real starts (their planned phases taken out), on the coordinator's clock.
    // Empty and 0 for a point made on this machine.
    std::vector<AgentLane> agents;
    std::int64_t startSkewMicros = 0;

    // Descriptors the server still held once the point had drained that it did not hold before
    // it ("fd 12 file /root/4K.bin", as lsof lists them); empty when the count came back.
    QStringList fdsLeftOpen;

    double kibPerSecond() const { return dnf ? 0.0 : load.kibPerSecond(); }
    // The point without its timelines: what a table or a chart of totals keeps.
    PointResult summary() const
    {
        PointResult p = *this;
        p.clientSamples = {};
        p.serverSamples = {};
        for (AgentLane &lane : p.agents)
            lane.samples = {};
        return p;
    }
    // Only the totals (counts, bytes, times, the reason): what a table of KiB/s needs, a few
    // hundred bytes instead of a point's tens of KiB of histograms and samples.
    PointResult totals() const
    {
        PointResult p = summary();
        p.load.latency = {};
        p.load.connectTimes = {};
        p.load.processingTimes = {};
        p.load.waitingTimes = {};
        p.uncorrected = {};
        p.fdsLeftOpen = {};
        for (AgentLane &lane : p.agents)
            lane.load.latency = {};
        return p;
    }
};

} // namespace servelab::lab

Q_DECLARE_METATYPE(servelab::lab::PointResult)
