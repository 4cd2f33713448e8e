// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QList>
#include <QString>

namespace servelab::lab {

// The h2 tax at one size for one target: its HTTP/2 points' figures over its HTTP/1.1 points'
// (h2c beside http, h2 beside https; the means of their repetitions). Below 1 throughput, or
// above 1 CPU per request, is what HTTP/2's framing, HPACK and flow control cost there.
struct ProtocolRatio
{
    QString target; // the target's label without its transport ("epoll+sendfile")
    QString pair;   // "h2c ÷ http" or "h2 ÷ https"
    QString label;  // the HTTP/2 side's label ("epoll+sendfile h2c"): its colour on the charts
    quint64 sizeBytes = 0;
    double throughput = -1; // KiB/s over KiB/s; -1: a side has no number
    double serverCpu = -1;  // server CPU µs per request over the same; -1: not read
};

// Every pair the points make, by target, then pair, then size. A target measured over one
// protocol only (or every point of a side DNF) has none.
QList<ProtocolRatio> protocolRatios(const QList<PointResult> &points);

} // namespace servelab::lab
