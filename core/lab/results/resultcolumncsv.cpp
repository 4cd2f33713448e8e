// SPDX-License-Identifier: Apache-2.0
// ResultColumns as the CSV files and the mergers read it: runs.csv's header and cells,
// results.csv's merged columns, and the load agents' shares made one point. The rows
// themselves are in resultcolumns.cpp.
#include "resultcolumns.h"

#include "pointcost.h"

#include <algorithm>
#include <cmath>

namespace servelab::lab {

QStringList ResultColumns::csvNames()
{
    QStringList out;
    const auto rows = point();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == csvCostAt())
            for (const PointCost &cost : PointCost::rows())
                out << QString::fromLatin1(cost.key);
        if (rows[i].csv)
            out << QString::fromLatin1(rows[i].csv);
    }
    return out;
}

QStringList ResultColumns::csvCells(const PointResult &p)
{
    QStringList out;
    const auto rows = point();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == csvCostAt())
            for (const PointCost &cost : PointCost::rows())
                out << cost.text(p);
        if (const auto &c = rows[i]; c.csv)
            out << (c.measured && !c.measured(p) ? QString() : csvText(c.get(p), c.decimals));
    }
    return out;
}

QString ResultColumns::csvText(const QVariant &value, int decimals)
{
    if (value.isNull() || !value.isValid())
        return {};
    switch (value.typeId()) {
    case QMetaType::Bool: return value.toBool() ? QStringLiteral("1") : QStringLiteral("0");
    case QMetaType::Double:
        return decimals >= 0 ? QString::number(value.toDouble(), 'f', decimals) : value.toString();
    case QMetaType::QString: {
        const QString text = value.toString();
        if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n'))
            return text;
        QString quoted = text;
        quoted.replace(u'"', QStringLiteral("\"\""));
        return u'"' + quoted + u'"';
    }
    default: return value.toString();
    }
}

QVariant ResultColumns::merged(ResultMerge how, const QVariantList &values,
                               const QList<double> &requests)
{
    if (values.isEmpty() || how == ResultMerge::None)
        return {};
    const bool whole = std::all_of(values.begin(), values.end(), [](const QVariant &v) {
        const int type = v.typeId();
        return type == QMetaType::Int || type == QMetaType::LongLong || type == QMetaType::UInt ||
               type == QMetaType::ULongLong;
    });
    const auto keep = [&](double x) {
        return whole ? QVariant(qint64(std::llround(x))) : QVariant(x);
    };
    switch (how) {
    case ResultMerge::None: break;
    case ResultMerge::Sum: {
        if (whole) {
            qint64 sum = 0;
            for (const QVariant &v : values)
                sum += v.toLongLong();
            return QVariant(sum);
        }
        double sum = 0;
        for (const QVariant &v : values)
            sum += v.toDouble();
        return QVariant(sum);
    }
    case ResultMerge::Max: {
        QVariant best = values.first();
        for (const QVariant &v : values)
            if (whole ? v.toLongLong() > best.toLongLong() : v.toDouble() > best.toDouble())
                best = v;
        return best;
    }
    case ResultMerge::All:
        return QVariant(std::all_of(values.begin(), values.end(),
                                    [](const QVariant &v) { return v.toBool(); }));
    case ResultMerge::Mean: {
        double sum = 0;
        for (const QVariant &v : values)
            sum += v.toDouble();
        return keep(sum / double(values.size()));
    }
    case ResultMerge::MeanByRequests: {
        double sum = 0;
        double weight = 0;
        for (qsizetype i = 0; i < values.size(); ++i) {
            sum += values[i].toDouble() * requests.value(i);
            weight += requests.value(i);
        }
        return keep(weight > 0 ? sum / weight : 0);
    }
    }
    return {};
}

void ResultColumns::mergeAgents(const QList<const PointResult *> &shares, PointResult *into)
{
    if (shares.isEmpty())
        return;
    QList<double> requests;
    for (const PointResult *share : shares)
        requests << double(share->load.ok);
    for (const auto &c : point()) {
        if (c.agents == ResultMerge::None || !c.set)
            continue;
        QVariantList values;
        bool measured = true; // unknown in one share (a figure not read): unknown in the point
        for (const PointResult *share : shares) {
            measured = measured && (!c.measured || c.measured(*share));
            values << c.get(*share);
        }
        c.set(into, measured ? merged(c.agents, values, requests) : QVariant());
    }
}

QStringList ResultColumns::mergedNames()
{
    QStringList out;
    for (const auto &c : point())
        if (c.repetitions != ResultMerge::None)
            out << QString::fromLatin1(c.csv ? c.csv : c.json);
    return out;
}

QStringList ResultColumns::mergedCells(const QList<const PointResult *> &points)
{
    QList<double> requests;
    for (const PointResult *p : points)
        requests << double(p->load.ok);
    QStringList out;
    for (const auto &c : point()) {
        if (c.repetitions == ResultMerge::None)
            continue;
        QVariantList values;
        bool measured = !points.isEmpty();
        for (const PointResult *p : points) {
            measured = measured && (!c.measured || c.measured(*p));
            values << c.get(*p);
        }
        out << (measured ? csvText(merged(c.repetitions, values, requests), c.decimals)
                         : QString());
    }
    return out;
}

} // namespace servelab::lab
