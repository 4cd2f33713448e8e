// SPDX-License-Identifier: Apache-2.0
#include "loadlatency.h"

#include "lab/spec/experimentspec.h"

#include <QMap>

#include <cmath>

namespace servelab::lab {

QString LoadLatencyCurve::rule()
{
    return QStringLiteral("saturated: achieved < %1 % of offered, or p99 above %2 × its value "
                          "at the lowest rate")
        .arg(achievedShare * 100)
        .arg(p99Growth);
}

QList<LoadLatencyCurve> loadLatencyCurves(const QList<PointResult> &points)
{
    struct Rate
    {
        client::LatencyHistogram latency;
        double achievedSum = 0;
        int repetitions = 0;
    };
    QList<QPair<QString, quint64>> order;
    QMap<QPair<QString, quint64>, QMap<double, Rate>> byCurve;
    for (const PointResult &p : points) {
        if (p.dnf || p.model != client::LoadModel::Rate || p.offeredPerSecond <= 0)
            continue;
        QString target = p.target;
        target.replace(u' ' + ExperimentSpec::rateVariant(std::llround(p.offeredPerSecond)),
                       QString());
        const QPair<QString, quint64> key{target, p.sizeBytes};
        if (!order.contains(key))
            order << key;
        Rate &rate = byCurve[key][p.offeredPerSecond];
        rate.latency.merge(p.load.latency);
        rate.achievedSum += p.load.requestsPerSecond();
        ++rate.repetitions;
    }
    QList<LoadLatencyCurve> out;
    for (const auto &key : order) {
        LoadLatencyCurve curve;
        curve.target = key.first;
        curve.sizeBytes = key.second;
        const auto &rates = byCurve[key];
        for (auto it = rates.cbegin(); it != rates.cend(); ++it) {
            const auto ms = [&](double percentile) {
                return double(it->latency.valueAtPercentile(percentile)) / 1000.0;
            };
            curve.points << LoadLatencyPoint{
                it.key(), it->achievedSum / it->repetitions, ms(50), ms(90), ms(99), ms(99.9)};
        }
        const double firstP99 = curve.points.isEmpty() ? 0 : curve.points.first().p99Ms;
        for (int i = 0; i < curve.points.size() && curve.saturatedAt < 0; ++i) {
            const LoadLatencyPoint &p = curve.points[i];
            if (p.achieved < LoadLatencyCurve::achievedShare * p.offered ||
                (firstP99 > 0 && p.p99Ms > LoadLatencyCurve::p99Growth * firstP99))
                curve.saturatedAt = i;
        }
        out << curve;
    }
    return out;
}

} // namespace servelab::lab
