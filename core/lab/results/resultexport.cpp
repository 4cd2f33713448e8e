// SPDX-License-Identifier: Apache-2.0
#include "resultexport.h"

#include "resultcolumns.h"

#include "pointcost.h"

#include <map>

#include "lab/spec/sizelist.h"
#include "statistics.h"

#include "client/hdrhistogramlog.h"
#include <QDateTime>
#include <QMap>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QStringList>

namespace servelab::lab {

namespace {

struct Grid
{
    QStringList targets;
    QList<quint64> sizes;
    QMap<QPair<quint64, QString>, QString> cells;
};

// The KiB/s of each target and size; repetitions of a point give their mean, and a point DNF
// in any repetition is DNF.
Grid gridOf(const QList<PointResult> &points)
{
    Grid grid;
    QMap<QPair<quint64, QString>, std::vector<double>> values;
    QSet<QPair<quint64, QString>> dnf;
    for (const auto &p : points) {
        if (!grid.targets.contains(p.target))
            grid.targets.append(p.target);
        if (!grid.sizes.contains(p.sizeBytes))
            grid.sizes.append(p.sizeBytes);
        if (p.dnf)
            dnf.insert({p.sizeBytes, p.target});
        else
            values[{p.sizeBytes, p.target}].push_back(p.kibPerSecond());
    }
    for (auto it = values.begin(); it != values.end(); ++it)
        grid.cells[it.key()] = QString::number(Statistics::of(it.value()).mean, 'f', 2);
    for (const auto &key : dnf)
        grid.cells[key] = QStringLiteral("DNF");
    std::sort(grid.sizes.begin(), grid.sizes.end());
    return grid;
}

QString csvField(const QString &text)
{
    return ResultColumns::csvText(QVariant(text), -1);
}

QString ms(double micros)
{
    return QString::number(micros / 1000.0, 'f', 3);
}

} // namespace

QString formatSeedTable(const QList<PointResult> &points)
{
    const Grid grid = gridOf(points);
    QList<int> widths;
    for (const auto &target : grid.targets)
        widths.append(std::max<int>(target.size(), 12));
    QString out = QStringLiteral("%1").arg(QStringLiteral("File Size"), -10);
    for (int i = 0; i < grid.targets.size(); ++i)
        out += QStringLiteral("  %1").arg(grid.targets[i], widths[i]);
    out += QStringLiteral("\n%1").arg(QString(), -10);
    for (int i = 0; i < grid.targets.size(); ++i)
        out += QStringLiteral("  %1").arg(QStringLiteral("KiB/s"), widths[i]);
    out += u'\n';
    for (quint64 size : grid.sizes) {
        out += QStringLiteral("%1").arg(formatSize(size), -10);
        for (int i = 0; i < grid.targets.size(); ++i)
            out += QStringLiteral("  %1").arg(
                grid.cells.value({size, grid.targets[i]}, QStringLiteral("-")), widths[i]);
        out += u'\n';
    }
    return out;
}

QString formatSeedTsv(const QList<PointResult> &points)
{
    const Grid grid = gridOf(points);
    QString out = QStringLiteral("File Size (KiB/s)");
    for (const auto &target : grid.targets)
        out += u'\t' + target;
    out += u'\n';
    for (quint64 size : grid.sizes) {
        out += formatSize(size);
        for (const auto &target : grid.targets)
            out += u'\t' + grid.cells.value({size, target}, QStringLiteral("-"));
        out += u'\n';
    }
    return out;
}

// runs.csv is ResultColumns' rows that name a csv column, the cost per request among them.
QStringList csvColumns()
{
    return ResultColumns::csvNames();
}

QString formatCsv(const QList<PointResult> &points)
{
    QString out = csvColumns().join(u',') + u'\n';
    for (const auto &p : points)
        out += ResultColumns::csvCells(p).join(u',') + u'\n';
    return out;
}

QString formatSummaryCsv(const QList<PointResult> &points)
{
    // The client's figures, then ResultColumns' merged rows (a rate's late and missed, a
    // ramp's checks, the TLS handshakes, the server's counters) as each row merges them; the
    // reason last.
    QString out =
        QStringLiteral(
            "size_bytes,size,target,status,repetitions,kib_per_s,kib_per_s_sd,kib_per_s_ci95_low,"
            "kib_per_s_ci95_high,kib_per_s_cv,noisy,requests_per_s,completed,ok,failed,"
            "latency_p50_ms,latency_p90_ms,latency_p99_ms,latency_max_ms,fds_left_open,"
            "handoff_wait_mean_us,") +
        ResultColumns::mergedNames().join(u',') + QStringLiteral(",reason\n");
    QList<QPair<quint64, QString>> order;
    QMap<QPair<quint64, QString>, QList<const PointResult *>> runs;
    for (const auto &p : points) {
        const QPair<quint64, QString> key{p.sizeBytes, p.target};
        if (!runs.contains(key))
            order << key;
        runs[key] << &p;
    }
    for (const auto &key : order) {
        const auto &list = runs[key];
        std::vector<double> kib;
        std::vector<double> rps;
        client::LoadResult merged;
        QString reason;
        bool dnf = false;
        int leftOpen = 0;
        bool counted = true;
        server::ServerStats server; // the repetitions' counters, merged as their table says
        for (const PointResult *p : list) {
            dnf = dnf || p->dnf;
            if (!p->dnf) {
                kib.push_back(p->kibPerSecond());
                rps.push_back(p->load.requestsPerSecond());
            }
            merged.merge(p->load);
            leftOpen += int(p->fdsLeftOpen.size());
            counted = counted && p->serverCounted;
            server += p->server;
            if (reason.isEmpty())
                reason = p->reason;
        }
        const Statistics k = Statistics::of(kib);
        const auto figure = [&](double v) { return dnf ? QString() : QString::number(v, 'f', 2); };
        const QStringList row{
            QString::number(key.first),
            formatSize(key.first),
            csvField(key.second),
            dnf ? QStringLiteral("dnf") : QStringLiteral("ok"),
            QString::number(list.size()),
            figure(k.mean),
            figure(k.stddev),
            figure(k.low()),
            figure(k.high()),
            dnf ? QString() : QString::number(k.cv, 'f', 4),
            dnf ? QString() : (k.noisy ? QStringLiteral("yes") : QStringLiteral("no")),
            figure(Statistics::of(rps).mean),
            QString::number(merged.completed),
            QString::number(merged.ok),
            QString::number(merged.failed()),
            ms(double(merged.latency.valueAtPercentile(50))),
            ms(double(merged.latency.valueAtPercentile(90))),
            ms(double(merged.latency.valueAtPercentile(99))),
            ms(double(merged.latency.max())),
            QString::number(leftOpen),
            counted && server.handoffs
                ? QString::number(double(server.handoffWaitMicros) / double(server.handoffs), 'f',
                                  1)
                : QString(),
        };
        out += (row + ResultColumns::mergedCells(list) + QStringList{csvField(reason)}).join(u',') +
               u'\n';
    }
    return out;
}

QString formatPointsHdrLog(const QList<PointResult> &points)
{
    std::int64_t origin = -1;
    for (const auto &p : points)
        if (p.startedAtMicros > 0)
            origin = origin < 0 ? p.startedAtMicros : std::min(origin, p.startedAtMicros);
    client::HdrHistogramLog log(double(QDateTime::currentMSecsSinceEpoch()) / 1000);
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9+._-]"));
    for (const auto &p : points) {
        QString tag = QStringLiteral("p%1_%2_%3_r%4")
                          .arg(p.index)
                          .arg(p.target, formatSize(p.sizeBytes))
                          .arg(p.repetition + 1);
        tag.replace(unsafe, QStringLiteral("_"));
        const double start = origin < 0 ? 0 : double(p.startedAtMicros - origin) / 1e6;
        log.add(start, p.load.elapsedSeconds(), p.load.latency, tag.toStdString());
        // A distributed point: each load agent's own histogram after the merged one, tagged
        // with the point's tag and the agent's number ("…_r1_a2"), from its real start.
        for (std::size_t k = 0; k < p.agents.size(); ++k) {
            const AgentLane &lane = p.agents[k];
            log.add(start + double(lane.startMicros) / 1e6, lane.load.elapsedSeconds(),
                    lane.load.latency, QStringLiteral("%1_a%2").arg(tag).arg(k + 1).toStdString());
        }
    }
    return QString::fromStdString(log.text());
}

QStringList processColumns(const metrics::ProcessSample *s, const metrics::ProcessSample *previous)
{
    if (!s || !s->alive)
        return QStringList(12, QString());
    const auto typed = [&](int count) { return s->byType ? QString::number(count) : QString(); };
    QStringList f{QString::number(s->total),
                  typed(s->sockets),
                  typed(s->files),
                  typed(s->pipes),
                  typed(s->anonInodes),
                  typed(s->other),
                  s->fdLimit < 0 ? QString() : QString::number(s->fdLimit),
                  QString::number(s->threads),
                  QString::number(s->rssBytes / 1024)};
    const double seconds =
        previous && previous->alive ? double(s->atMicros - previous->atMicros) / 1e6 : 0;
    const auto share = [&](double now, double before) {
        return seconds > 0 ? QString::number(100 * (now - before) / seconds, 'f', 1) : QString();
    };
    f << share(s->userSeconds, previous ? previous->userSeconds : 0)
      << share(s->systemSeconds, previous ? previous->systemSeconds : 0)
      << QString::number(s->processes);
    return f;
}

QString processCsvHeader()
{
    return QStringLiteral("fds,sockets,files,pipes,anon_inodes,other_fds,fd_limit,threads,rss_kib,"
                          "cpu_user_pct,cpu_sys_pct,processes");
}

QString formatTimelineCsv(const QList<PointResult> &points)
{
    constexpr std::int64_t period = 100'000; // µs, both samplers' period
    QString out = QStringLiteral("point,size_bytes,target,t_s,requests,req_per_s,kib_per_s,errors,"
                                 "open_connections,p50_us,p99_us,") +
                  processCsvHeader() + QStringLiteral(",tune\n");
    for (const auto &p : points) {
        struct Row
        {
            const client::ClientSample *client = nullptr;
            const metrics::ProcessSample *server = nullptr;
            const metrics::ProcessSample *previous = nullptr; // for the CPU share
            QStringList tune; // the changes made to the server in this slot (markers)
        };
        std::map<std::int64_t, Row> rows;
        const auto slotOf = [&](std::int64_t micros) { return (micros + period / 2) / period; };
        for (const auto &c : p.clientSamples)
            rows[slotOf(c.endMicros)].client = &c;
        // CPU shares over at least half a period: /proc counts CPU time in 10 ms ticks, and the
        // point's own first and last samples may fall a few ms from a periodic one.
        std::size_t base = 0;
        for (std::size_t i = 0; i < p.serverSamples.size(); ++i) {
            const auto &s = p.serverSamples[i];
            while (base + 1 < i && p.serverSamples[base + 1].atMicros <= s.atMicros - period / 2)
                ++base;
            Row &row = rows[slotOf(s.atMicros - p.startedAtMicros)];
            row.server = &s;
            const auto &earlier = p.serverSamples[base];
            row.previous = base < i && earlier.alive && earlier.atMicros <= s.atMicros - period / 2
                               ? &earlier
                               : nullptr;
        }
        // A change at its 100 ms row; one the point ended before has no row (runs.csv says it).
        const std::int64_t lastSlot = rows.empty() ? 0 : rows.rbegin()->first;
        for (const TuneEvent &e : p.tuneEvents)
            if (const auto slot = slotOf(e.atMicros - p.startedAtMicros); slot <= lastSlot)
                rows[slot].tune << (e.made()
                                        ? e.change
                                        : QStringLiteral("refused %1: %2").arg(e.change, e.error));
        for (const auto &[slot, row] : rows) {
            QStringList f{QString::number(p.index), QString::number(p.sizeBytes),
                          csvField(p.target), QString::number(double(slot) / 10, 'f', 1)};
            if (const auto *c = row.client) {
                const double seconds = double(c->intervalMicros) / 1e6;
                f << QString::number(c->completed)
                  << QString::number(seconds > 0 ? double(c->completed) / seconds : 0, 'f', 1)
                  << QString::number(seconds > 0 ? double(c->bytesRead) / 1024 / seconds : 0, 'f',
                                     1)
                  << QString::number(c->failed) << QString::number(c->openConnections)
                  << QString::number(c->latency.valueAtPercentile(50))
                  << QString::number(c->latency.valueAtPercentile(99));
            } else {
                f << QString() << QString() << QString() << QString() << QString() << QString()
                  << QString();
            }
            f << processColumns(row.server, row.previous)
              << csvField(row.tune.join(QStringLiteral("; ")));
            out += f.join(u',') + u'\n';
        }
    }
    return out;
}

bool writeTextFile(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = text.toUtf8();
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace servelab::lab
