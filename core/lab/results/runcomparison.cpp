// SPDX-License-Identifier: Apache-2.0
#include "runcomparison.h"

#include "lab/spec/sizelist.h"
#include "statistics.h"

#include <QMap>

namespace servelab::lab {

namespace {

struct Mean
{
    std::vector<double> values; // KiB/s of each repetition that finished
    bool dnf = false;
};

using Means = QMap<QPair<QString, quint64>, Mean>;

Means meansOf(const QList<PointResult> &points, QStringList *order)
{
    Means out;
    for (const auto &p : points) {
        auto &m = out[{p.target, p.sizeBytes}];
        if (order && !order->contains(p.target))
            *order << p.target;
        if (p.dnf) {
            m.dnf = true;
            continue;
        }
        m.values.push_back(p.kibPerSecond());
    }
    return out;
}

} // namespace

RunComparison RunComparison::of(const QList<PointResult> &thisRun, const QList<PointResult> &other)
{
    QStringList order;
    const Means mine = meansOf(thisRun, &order);
    const Means theirs = meansOf(other, nullptr);
    RunComparison out;
    for (const QString &target : order) {
        for (auto it = mine.cbegin(); it != mine.cend(); ++it) {
            if (it.key().first != target || !theirs.contains(it.key()))
                continue;
            const Mean &a = it.value();
            const Mean &b = theirs[it.key()];
            const Statistics sa = Statistics::of(a.values);
            const Statistics sb = Statistics::of(b.values);
            Row row;
            row.target = target;
            row.sizeBytes = it.key().second;
            row.dnf = a.dnf || b.dnf || sa.count == 0 || sb.count == 0;
            row.kibThis = a.dnf ? 0 : sa.mean;
            row.kibOther = b.dnf ? 0 : sb.mean;
            row.withinNoise = !row.dnf && sa.count >= 2 && sb.count >= 2 && sa.low() <= sb.high() &&
                              sb.low() <= sa.high();
            out.rows << row;
        }
    }
    return out;
}

QString RunComparison::toTsv() const
{
    QString out =
        QStringLiteral("Target\tFile Size\tKiB/s (this run)\tKiB/s (other)\tRatio\tWithin noise\n");
    for (const Row &r : rows)
        out +=
            QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\n")
                .arg(r.target, formatSize(r.sizeBytes),
                     r.kibThis > 0 ? QString::number(r.kibThis, 'f', 2) : QStringLiteral("DNF"),
                     r.kibOther > 0 ? QString::number(r.kibOther, 'f', 2) : QStringLiteral("DNF"),
                     r.dnf ? QStringLiteral("-") : QString::number(r.ratio(), 'f', 3),
                     r.withinNoise ? QStringLiteral("yes") : QStringLiteral("no"));
    return out;
}

} // namespace servelab::lab
