// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace servelab::lab {

// A point's perf profile of the server (lab::PointProfiler), taken in a pass of the same load
// after the point's own: the point's figures are unprofiled, and the pass says what profiling
// cost. Stacks as folded text (profile::FoldedStacks), weights in µs.
struct PointProfile
{
    bool requested = false; // the spec asked for this point
    QString note;     // why there is no profile, or what to know about this one (shallow stacks)
    QString onCpu;    // where the server ran
    QString offCpu;   // where its threads blocked, and for how long
    QString perfData; // the recording, kept for perf report or hotspot
    double requestsPerSecond = 0;           // during the profiled pass
    double unprofiledRequestsPerSecond = 0; // the point's own, for the overhead

    bool has() const { return !onCpu.isEmpty() || !offCpu.isEmpty(); }
    // How much slower the server ran with perf attached, in % (negative: faster, i.e. noise).
    double overheadPercent() const
    {
        return unprofiledRequestsPerSecond > 0 && requestsPerSecond > 0
                   ? 100.0 * (1.0 - requestsPerSecond / unprofiledRequestsPerSecond)
                   : 0.0;
    }
};

} // namespace servelab::lab
