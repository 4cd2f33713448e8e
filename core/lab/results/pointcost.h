// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QString>

#include <span>

namespace servelab::lab {

// What one request cost, per side: a point's ResourceUse over the requests it made (the
// server's own count where it keeps one, else the client's, ramp-up and down included), or
// over the MiB it moved. One row per figure: the CSV's columns, the table's tooltip and the
// "cost per request" chart all read them.
struct PointCost
{
    enum class Side
    {
        Server,
        Client
    };
    enum class Per
    {
        Request,
        MiB
    };

    const char *key;   // "server_cpu_us_per_req": the CSV's header
    const char *label; // "server CPU µs/req"
    Side side;
    std::int64_t metrics::ResourceUse::*member; // nullptr: CPU, user and system together
    Per per;
    int decimals;

    // The figure for `point`, or a negative number when unknown (a DNF point, a figure not
    // read).
    double of(const PointResult &point) const;
    QString text(const PointResult &point) const; // empty when unknown

    static std::span<const PointCost> rows();
    static const PointCost &serverCpu(); // the chart's and the table's figure
    static const PointCost &clientCpu();
    // The requests a side's cost is divided by.
    static double requests(const PointResult &point, Side side);
};

} // namespace servelab::lab
