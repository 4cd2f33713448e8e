// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "client/clientsample.h"
#include "client/loadresult.h"

#include <QJsonArray>
#include <QString>

#include <vector>

namespace servelab::lab {

// One load agent's part of a distributed point (several hosts made its load): who it was, how
// its clock stood to the coordinator's, when it really started, what it measured and what it
// cost its host. The point's own figures are these merged (histograms bucket by bucket); the
// lanes keep each agent apart, so a client-bound or a lost agent stays visible.
struct AgentLane
{
    QString agent;            // "load agent 2 (10.0.0.3)"
    bool finished = false;    // its result came, and it was not cut short (cancelled, lost)
    qint64 clockOffsetNs = 0; // its monotonic clock less the coordinator's (minimum-RTT ping)
    qint64 clockErrorNs = 0;  // ± half that ping's round trip
    qint64 clockDriftNs = 0;  // the offset measured after the point, less the one before
    qint64 startMicros = 0;   // its real start, from the point's T0 (its planned phase included)
    int cores = 0;            // its host's, what its CPU share is weighed against
    client::LoadResult load;  // its totals, latency histogram and client CPU (load.clientUse)
    std::vector<client::ClientSample> samples; // its 100 ms samples, from T0

    // Its client threads' CPU time over its elapsed time and its host's cores, 0..1 (-1: not
    // known): what says an agent was client-bound.
    double cpuShare() const;
    // One line of what it did, for the run's log: "load agent 2 (b): 60 ok, 4,812 req/s,
    // started 0.013 ms after T0, client CPU 31 % of 2 cores, clock +0.004 ± 0.061 ms" (and
    // "cut short" for a lane that did not finish).
    QString summary() const;

    // The lanes as the database and the bundle keep them (one JSON array, one object a lane).
    static QJsonArray toJson(const std::vector<AgentLane> &lanes);
    static std::vector<AgentLane> fromJson(const QJsonArray &lanes);
};

} // namespace servelab::lab
