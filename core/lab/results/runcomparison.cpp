// SPDX-License-Identifier: Apache-2.0
#include "runcomparison.h"

#include "lab/spec/sizelist.h"
#include "pointcost.h"
#include "statistics.h"

#include <cmath>

#include <QMap>

namespace servelab::lab {

namespace {

struct Mean
{
    std::vector<double> values; // KiB/s of each repetition that finished
    std::vector<double> p99Ms;
    std::vector<double> serverCpu; // µs per request, where read
    bool dnf = false;
};

double average(const std::vector<double> &values, double none)
{
    if (values.empty())
        return none;
    double sum = 0;
    for (double v : values)
        sum += v;
    return sum / double(values.size());
}

// Welch's test of mean(a) - mean(b): the 95 % interval over mean(b), and what it says.
void welch(const Statistics &a, const Statistics &b, double minEffect, RunComparison::Row *row)
{
    using Verdict = RunComparison::Verdict;
    if (a.count < 2 || b.count < 2) {
        row->verdict = Verdict::Untested;
        row->ratioLow = row->ratioHigh = row->ratio();
        return;
    }
    const double va = a.stddev * a.stddev / a.count;
    const double vb = b.stddev * b.stddev / b.count;
    const double se = std::sqrt(va + vb);
    const double difference = a.mean - b.mean;
    double half = 0;
    if (se > 0) {
        const double df =
            (va + vb) * (va + vb) / (va * va / (a.count - 1) + vb * vb / (b.count - 1));
        // Degrees of freedom rounded down: the wider interval.
        half = Statistics::t95(std::max(1, int(std::floor(df)))) * se;
    }
    row->ratioLow = 1 + (difference - half) / b.mean;
    row->ratioHigh = 1 + (difference + half) / b.mean;
    const bool large = std::abs(difference) >= minEffect * b.mean;
    row->verdict = large && difference - half > 0   ? Verdict::Faster
                   : large && difference + half < 0 ? Verdict::Slower
                                                    : Verdict::NoDifference;
}

using Verdict = RunComparison::Verdict;
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
        m.p99Ms.push_back(double(p.load.latency.valueAtPercentile(99)) / 1000.0);
        if (const double cost = PointCost::serverCpu().of(p); cost >= 0)
            m.serverCpu.push_back(cost);
    }
    return out;
}

} // namespace

RunComparison RunComparison::of(const QList<PointResult> &thisRun, const QList<PointResult> &other,
                                double minEffect)
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
            if (row.dnf)
                row.verdict = Verdict::Dnf;
            else
                welch(sa, sb, minEffect, &row);
            row.p99MsThis = average(a.p99Ms, 0);
            row.p99MsOther = average(b.p99Ms, 0);
            row.serverCpuThis = average(a.serverCpu, -1);
            row.serverCpuOther = average(b.serverCpu, -1);
            out.rows << row;
        }
    }
    return out;
}

const char *RunComparison::verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster: return "faster";
    case Verdict::Slower: return "slower";
    case Verdict::NoDifference: return "no significant difference";
    case Verdict::Untested: return "untested (under 2 repetitions)";
    case Verdict::Dnf: return "DNF";
    }
    return "";
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
