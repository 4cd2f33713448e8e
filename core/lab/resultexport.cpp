#include "resultexport.h"

#include "sizelist.h"

#include <QMap>
#include <QSaveFile>
#include <QStringList>

namespace servelab::lab {

namespace {

struct Grid
{
    QStringList targets;
    QList<quint64> sizes;
    QMap<QPair<quint64, QString>, QString> cells;
};

Grid gridOf(const QList<PointResult> &points)
{
    Grid grid;
    for (const auto &p : points) {
        if (!grid.targets.contains(p.target))
            grid.targets.append(p.target);
        if (!grid.sizes.contains(p.sizeBytes))
            grid.sizes.append(p.sizeBytes);
        grid.cells[{p.sizeBytes, p.target}] =
            p.dnf ? QStringLiteral("DNF") : QString::number(p.kibPerSecond(), 'f', 2);
    }
    std::sort(grid.sizes.begin(), grid.sizes.end());
    return grid;
}

QString csvField(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n'))
        return text;
    QString quoted = text;
    quoted.replace(u'"', QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
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

QStringList csvColumns()
{
    return {QStringLiteral("size_bytes"),
            QStringLiteral("size"),
            QStringLiteral("target"),
            QStringLiteral("status"),
            QStringLiteral("concurrency"),
            QStringLiteral("completed"),
            QStringLiteral("ok"),
            QStringLiteral("failed"),
            QStringLiteral("bytes_read"),
            QStringLiteral("body_bytes"),
            QStringLiteral("elapsed_s"),
            QStringLiteral("requests_per_s"),
            QStringLiteral("kib_per_s"),
            QStringLiteral("latency_mean_ms"),
            QStringLiteral("latency_p50_ms"),
            QStringLiteral("latency_p90_ms"),
            QStringLiteral("latency_p99_ms"),
            QStringLiteral("latency_max_ms"),
            QStringLiteral("reason")};
}

QString formatCsv(const QList<PointResult> &points)
{
    QString out = csvColumns().join(u',') + u'\n';
    for (const auto &p : points) {
        const auto &l = p.load;
        const QStringList row{
            QString::number(p.sizeBytes),
            formatSize(p.sizeBytes),
            csvField(p.target),
            p.dnf ? QStringLiteral("dnf") : QStringLiteral("ok"),
            QString::number(l.concurrency),
            QString::number(l.completed),
            QString::number(l.ok),
            QString::number(l.failed()),
            QString::number(l.bytesRead),
            QString::number(l.bodyBytes),
            QString::number(l.elapsedSeconds(), 'f', 6),
            QString::number(l.requestsPerSecond(), 'f', 2),
            p.dnf ? QString() : QString::number(l.kibPerSecond(), 'f', 2),
            ms(l.latency.mean()),
            ms(double(l.latency.valueAtPercentile(50))),
            ms(double(l.latency.valueAtPercentile(90))),
            ms(double(l.latency.valueAtPercentile(99))),
            ms(double(l.latency.max())),
            csvField(p.reason),
        };
        out += row.join(u',') + u'\n';
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
