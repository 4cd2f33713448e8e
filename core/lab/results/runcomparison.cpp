// SPDX-License-Identifier: Apache-2.0
#include "runcomparison.h"

#include "lab/spec/sizelist.h"

#include <QMap>

namespace servelab::lab {

namespace {

struct Mean
{
    double sum = 0;
    int count = 0;
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
        m.sum += p.kibPerSecond();
        ++m.count;
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
            Row row;
            row.target = target;
            row.sizeBytes = it.key().second;
            row.dnf = a.dnf || b.dnf || a.count == 0 || b.count == 0;
            row.kibThis = a.dnf || a.count == 0 ? 0 : a.sum / a.count;
            row.kibOther = b.dnf || b.count == 0 ? 0 : b.sum / b.count;
            out.rows << row;
        }
    }
    return out;
}

QString RunComparison::toTsv() const
{
    QString out = QStringLiteral("Target\tFile Size\tKiB/s (this run)\tKiB/s (other)\tRatio\n");
    for (const Row &r : rows)
        out +=
            QStringLiteral("%1\t%2\t%3\t%4\t%5\n")
                .arg(r.target, formatSize(r.sizeBytes),
                     r.kibThis > 0 ? QString::number(r.kibThis, 'f', 2) : QStringLiteral("DNF"),
                     r.kibOther > 0 ? QString::number(r.kibOther, 'f', 2) : QStringLiteral("DNF"),
                     r.dnf ? QStringLiteral("-") : QString::number(r.ratio(), 'f', 3));
    return out;
}

} // namespace servelab::lab
