// SPDX-License-Identifier: Apache-2.0
#include "bottleneck.h"

#include <algorithm>

namespace servelab::lab {

namespace {

using Kind = Bottleneck::Kind;

// clang-format off
constexpr Bottleneck::Row table[] = {
    {Kind::ClientBound, "client-bound",
     "the client used the CPU it could: these are the client's numbers, not the server's"},
    {Kind::ServerCpuBound, "server-cpu-bound", "the server used the CPU it could"},
    {Kind::FdLimit, "fd-limit", "the server ran out of file descriptors"},
    {Kind::ConnectionLimit, "connection-limit",
     "the server accepted fewer connections than the client opened"},
    {Kind::Errors, "errors", "too many requests failed for the figures to mean anything"},
    {Kind::LatencyBound, "latency-bound (c too low)",
     "CPU was left idle: each connection waited for its answer; raise the concurrency"},
    {Kind::Unclear, "unclear", "no figure points to one limit"},
};
// clang-format on

QString percent(double share)
{
    return QString::number(qRound(share * 100)) + u'%';
}

// A side's CPU over the point against what its busy threads (at least one) could use.
struct Side
{
    double cpuSeconds = 0;
    int threads = 1;
    double busy = 0; // share of min(threads, cores)

    Side(const metrics::ResourceUse &use, double seconds, int cores)
    {
        cpuSeconds = double(std::max<std::int64_t>(0, use.cpuMicros())) / 1e6;
        threads = int(std::max<std::int64_t>(1, use.busyThreads));
        busy = cpuSeconds / (seconds * std::min(threads, cores));
    }
    QString text(const char *who) const
    {
        return QStringLiteral("%1 %2 busy thread%3 at %4 of %5")
            .arg(QLatin1StringView(who))
            .arg(threads)
            .arg(threads == 1 ? QString() : QStringLiteral("s"))
            .arg(percent(busy))
            .arg(threads == 1 ? QStringLiteral("a core") : QStringLiteral("their cores"));
    }
};

} // namespace

std::span<const Bottleneck::Row> Bottleneck::rows()
{
    return table;
}

const Bottleneck::Row &Bottleneck::row(Kind kind)
{
    return table[int(kind)];
}

const Bottleneck::Row *Bottleneck::find(const QString &name)
{
    for (const Row &r : table)
        if (name == QLatin1StringView(r.name))
            return &r;
    return nullptr;
}

Bottleneck::Verdict Bottleneck::judge(const PointResult &p, int cores)
{
    cores = std::max(1, cores);
    const client::LoadResult &load = p.load;
    // The descriptors first: running out of them is what the errors then show.
    int fdPeak = 0;
    int fdLimit = -1;
    int socketPeak = 0;
    bool typed = false;
    for (const auto &s : p.serverSamples) {
        fdPeak = std::max(fdPeak, s.total);
        if (s.fdLimit > 0)
            fdLimit = s.fdLimit;
        if (s.byType) {
            typed = true;
            socketPeak = std::max(socketPeak, s.sockets);
        }
    }
    if (p.serverEmfile > 0)
        return {Kind::FdLimit, QStringLiteral("the server's accept() failed %1 times with EMFILE")
                                   .arg(p.serverEmfile)};
    if (fdLimit > 0 && fdPeak >= fdLimit * 95 / 100)
        return {Kind::FdLimit, QStringLiteral("the server held %1 descriptors of its limit of %2")
                                   .arg(fdPeak)
                                   .arg(fdLimit)};
    if (load.completed == 0)
        return {Kind::Errors, QStringLiteral("no request completed")};
    if (const double failed = double(load.failed()) / double(load.completed); failed >= 0.01)
        return {Kind::Errors,
                QStringLiteral("%1 of the requests failed, mostly: %2")
                    .arg(percent(failed),
                         QString::fromUtf8(client::errorKindText(load.dominantError())))};
    // Connections kept alive (a few connects for many requests) that the server never took:
    // they wait in its accept queue.
    const int c = load.concurrency;
    const bool kept = load.connects * 2 <= load.completed;
    if (kept && typed && c >= 4 && socketPeak < c * 9 / 10)
        return {Kind::ConnectionLimit,
                QStringLiteral("the server held at most %1 sockets for the client's %2 connections")
                    .arg(socketPeak)
                    .arg(c)};

    const double seconds = std::max(1e-3, load.elapsedSeconds());
    if (!p.serverUse.known() || !load.clientUse.known())
        return {Kind::Unclear, QStringLiteral("the %1's CPU time could not be read")
                                   .arg(p.serverUse.known() ? QStringLiteral("client")
                                                            : QStringLiteral("server"))};
    const Side server(p.serverUse, seconds, cores);
    const Side client(load.clientUse, seconds, cores);
    const double machine = (server.cpuSeconds + client.cpuSeconds) / (seconds * cores);
    const QString figures = QStringLiteral("%1; %2; the machine at %3 of %4 cores")
                                .arg(client.text("client"), server.text("server"), percent(machine))
                                .arg(cores);
    if (client.busy >= busy && (server.busy < busy || client.cpuSeconds >= server.cpuSeconds))
        return {Kind::ClientBound, figures};
    if (server.busy >= busy)
        return {Kind::ServerCpuBound, figures};
    // Both sides share a saturated machine: the one that takes the larger part limits the other.
    if (machine >= busy)
        return {client.cpuSeconds >= server.cpuSeconds ? Kind::ClientBound : Kind::ServerCpuBound,
                figures + QStringLiteral(", shared")};
    if (p.model == client::LoadModel::Rate && p.offeredPerSecond > 0 &&
        load.requestsPerSecond() >= 0.95 * p.offeredPerSecond)
        return {Kind::Unclear,
                QStringLiteral("the offered %1 req/s were served: the rate, not a limit, set the "
                               "pace; ")
                        .arg(p.offeredPerSecond, 0, 'f', 0) +
                    figures};
    if (machine < idle && c <= fewConnectionsPerCore * cores &&
        (p.model == client::LoadModel::Closed || p.model == client::LoadModel::Duration))
        return {Kind::LatencyBound, QStringLiteral("%1 connection%2; ")
                                            .arg(c)
                                            .arg(c == 1 ? QString() : QStringLiteral("s")) +
                                        figures};
    return {Kind::Unclear, figures};
}

} // namespace servelab::lab
