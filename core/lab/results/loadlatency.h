// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QList>
#include <QString>

namespace servelab::lab {

// Latency against offered load, the chart people draw by hand from wrk2 runs: each target's
// rate points (at one file size) by offered rate, repetitions merged, with the first offered
// rate at which the target saturated. The chart and its CSV read these curves.
struct LoadLatencyPoint
{
    double offered = 0;  // requests/s asked for
    double achieved = 0; // answered per second, the repetitions' mean
    // Corrected for coordinated omission (from each request's intended send time), ms.
    double p50Ms = 0;
    double p90Ms = 0;
    double p99Ms = 0;
    double p999Ms = 0;
};

struct LoadLatencyCurve
{
    QString target; // its label without the offered rate ("epoll+sendfile", not "… R=2000")
    quint64 sizeBytes = 0;
    QList<LoadLatencyPoint> points; // by offered rate, ascending
    int saturatedAt = -1;           // the index of the first saturated point; -1: none

    // The rule, as the legend states it: achieved below 98 % of offered, or a corrected p99
    // above 10 × its value at the lowest rate.
    static constexpr double achievedShare = 0.98;
    static constexpr double p99Growth = 10;
    static QString rule();
};

// The curves of the rate points among `points` (DNF points left out), in the order their
// targets first appear, a curve per target and size.
QList<LoadLatencyCurve> loadLatencyCurves(const QList<PointResult> &points);

} // namespace servelab::lab
