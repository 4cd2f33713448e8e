// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QString>

#include <span>

namespace servelab::lab {

// What limited a point, judged from the figures it already has: the client's CPU and the
// server's against the threads each kept busy and the machine's cores, the server's fd limit
// and EMFILE count, the connections it accepted against the client's, the errors, and the
// offered rate. A client-bound point's numbers are the client's, not the server's: the charts
// grey it and every export flags it.
class Bottleneck
{
public:
    enum class Kind
    {
        ClientBound,
        ServerCpuBound,
        FdLimit,
        ConnectionLimit,
        Errors,
        LatencyBound,
        RatePaced,
        Unclear,
    };
    struct Row
    {
        Kind kind;
        const char *name; // "client-bound": the database's, the exports' and the window's word
        const char *meaning;
    };
    static std::span<const Row> rows();
    static const Row &row(Kind kind);
    // The row named `name`, or nullptr (a point kept before verdicts: "").
    static const Row *find(const QString &name);

    struct Verdict
    {
        Kind kind = Kind::Unclear;
        QString why; // the figures that decided it
        QString name() const { return QString::fromLatin1(row(kind).name); }
    };
    // `cores`: the CPUs the point could use (sysconf(_SC_NPROCESSORS_ONLN) here).
    static Verdict judge(const PointResult &point, int cores);

    // Busy: a side that used this share of the cores its busy threads could have.
    static constexpr double busy = 0.85;
    // Latency-bound: no side busy and at most this many connections per core (one request in
    // flight is latency-bound by definition: each side waits for the other's answer).
    static constexpr int fewConnectionsPerCore = 2;
    // Rate-paced: the open model served this share of the rate it offered.
    static constexpr double served = 0.95;
};

} // namespace servelab::lab
