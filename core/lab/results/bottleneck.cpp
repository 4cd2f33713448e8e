// SPDX-License-Identifier: Apache-2.0
#include "bottleneck.h"

#include <QStringList>

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
     "too few requests in flight to keep either side busy: each connection waited for its "
     "answer; rank by CPU per request, or raise the concurrency"},
    {Kind::RatePaced, "rate-paced",
     "the offered rate was served: the client's schedule set the pace, not a limit"},
    {Kind::Unclear, "unclear", "no figure points to one limit: the reason says what rules out each"},
};
// clang-format on

QString percent(double share)
{
    return QString::number(qRound(share * 100)) + u'%';
}

// A side's CPU over the point against what its busy threads (at least one) could use. What it
// wanted counts, not only what it got: the time its threads waited for a CPU (another program,
// the other side on the same core) is added to the time they ran, so that a side that would
// have used a whole core is busy on a loaded machine too.
struct Side
{
    double cpuSeconds = 0;
    double waitSeconds = 0;
    int threads = 1;
    double busy = 0; // (ran + waited) as a share of min(threads, cores)

    Side(const metrics::ResourceUse &use, double seconds, int cores)
    {
        cpuSeconds = double(std::max<std::int64_t>(0, use.cpuMicros())) / 1e6;
        waitSeconds = double(std::max<std::int64_t>(0, use.waitMicros)) / 1e6;
        threads = int(std::max<std::int64_t>(1, use.busyThreads));
        const double could = seconds * std::min(threads, cores);
        busy = std::min(1.0, (cpuSeconds + waitSeconds) / could);
        ranShare = cpuSeconds / could;
    }
    QString text(const char *who) const
    {
        QString out =
            QStringLiteral("%1 %2 busy thread%3 at %4 of %5")
                .arg(QLatin1StringView(who))
                .arg(threads)
                .arg(threads == 1 ? QString() : QStringLiteral("s"))
                .arg(percent(busy))
                .arg(threads == 1 ? QStringLiteral("a core") : QStringLiteral("their cores"));
        if (waitSeconds > 0 && busy - ranShare >= 0.01)
            out += QStringLiteral(" (ran %1, waited for a CPU %2)")
                       .arg(percent(ranShare), percent(busy - ranShare));
        return out;
    }

private:
    double ranShare = 0;
};

// What each request cost, so that points no side limited still rank: CPU per request of each
// side against the time a request took end to end (per connection).
QString perRequest(const client::LoadResult &load, const Side &server, const Side &client)
{
    const double requests = double(std::max<std::uint64_t>(1, load.completed));
    const double each = load.elapsedSeconds() * std::max(1, load.concurrency) / requests;
    return QStringLiteral("per request: client %1 µs and server %2 µs of CPU in %3 µs")
        .arg(client.cpuSeconds / requests * 1e6, 0, 'f', 1)
        .arg(server.cpuSeconds / requests * 1e6, 0, 'f', 1)
        .arg(each * 1e6, 0, 'f', 1);
}

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
    if (p.server.acceptEmfile > 0)
        return {Kind::FdLimit, QStringLiteral("the server's accept() failed %1 times with EMFILE")
                                   .arg(p.server.acceptEmfile)};
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
    const int c = load.concurrency / std::max(1, load.streams); // connections
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
    const QString shares = QStringLiteral("%1; %2; the machine at %3 of %4 cores")
                               .arg(client.text("client"), server.text("server"), percent(machine))
                               .arg(cores);
    const QString cost = perRequest(load, server, client);
    const QString figures = shares + QStringLiteral("; ") + cost;
    if (client.busy >= busy && (server.busy < busy || client.cpuSeconds >= server.cpuSeconds))
        return {Kind::ClientBound, figures};
    if (server.busy >= busy)
        return {Kind::ServerCpuBound, figures};
    // Both sides share a saturated machine: the one that takes the larger part limits the other.
    if (machine >= busy)
        return {client.cpuSeconds >= server.cpuSeconds ? Kind::ClientBound : Kind::ServerCpuBound,
                shares + QStringLiteral(", shared; ") + cost};
    if (p.model == client::LoadModel::Rate && p.offeredPerSecond > 0 &&
        load.requestsPerSecond() >= served * p.offeredPerSecond)
        return {Kind::RatePaced,
                QStringLiteral("%1 of the offered %2 req/s served; ")
                        .arg(percent(load.requestsPerSecond() / p.offeredPerSecond))
                        .arg(p.offeredPerSecond, 0, 'f', 0) +
                    figures};
    const bool closed =
        p.model == client::LoadModel::Closed || p.model == client::LoadModel::Duration;
    if (closed && c <= fewConnectionsPerCore * cores)
        return {Kind::LatencyBound, QStringLiteral("%1 connection%2 for %3 cores; %4")
                                        .arg(c)
                                        .arg(c == 1 ? QString() : QStringLiteral("s"))
                                        .arg(cores)
                                        .arg(figures)};
    // Nothing fits: say what rules out each bound.
    QStringList against;
    against
        << QStringLiteral("neither side reached %1 of its cores (%2)").arg(percent(busy), shares);
    if (closed)
        against << QStringLiteral("%1 connections are more than %2 per core")
                       .arg(c)
                       .arg(fewConnectionsPerCore);
    else if (p.model == client::LoadModel::Rate && p.offeredPerSecond > 0)
        against << QStringLiteral("only %1 of the offered %2 req/s were served")
                       .arg(percent(load.requestsPerSecond() / p.offeredPerSecond))
                       .arg(p.offeredPerSecond, 0, 'f', 0);
    against << QStringLiteral("no errors, EMFILE or connections left unaccepted");
    against << cost;
    return {Kind::Unclear, against.join(QStringLiteral("; "))};
}

} // namespace servelab::lab
