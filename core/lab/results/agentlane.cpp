// SPDX-License-Identifier: Apache-2.0
#include "agentlane.h"

#include "pointresult.h"
#include "resultbundle.h"

#include <QJsonObject>

namespace servelab::lab {

double AgentLane::cpuShare() const
{
    const std::int64_t cpu = load.clientUse.cpuMicros();
    if (cpu < 0 || load.elapsedMicros <= 0 || cores <= 0)
        return -1;
    return double(cpu) / (double(load.elapsedMicros) * cores);
}

QString AgentLane::summary() const
{
    const auto ms = [](qint64 nanos) { return QString::number(double(nanos) / 1e6, 'f', 3); };
    QString line = QStringLiteral("%1: %2 ok").arg(agent).arg(load.ok);
    if (load.elapsedMicros > 0)
        line += QStringLiteral(", %1 req/s")
                    .arg(double(load.completed) * 1e6 / double(load.elapsedMicros), 0, 'f', 0);
    line += QStringLiteral(", started %1 ms after T0").arg(ms(startMicros * 1000));
    if (const double share = cpuShare(); share >= 0)
        line += QStringLiteral(", client CPU %1 % of %2 cores").arg(qRound(share * 100)).arg(cores);
    line += QStringLiteral(", clock %1%2 ± %3 ms")
                .arg(clockOffsetNs >= 0 ? QStringLiteral("+") : QString(), ms(clockOffsetNs),
                     ms(clockErrorNs));
    if (!finished)
        line += QStringLiteral(", cut short");
    return line;
}

// A lane's figures are a point's (the bundle's form of one: totals, histogram, samples), with
// the agent's own keys beside them.
QJsonArray AgentLane::toJson(const std::vector<AgentLane> &lanes)
{
    QJsonArray out;
    for (const AgentLane &lane : lanes) {
        PointResult p;
        p.load = lane.load;
        p.clientSamples = lane.samples;
        out.append(QJsonObject{{QStringLiteral("agent"), lane.agent},
                               {QStringLiteral("finished"), lane.finished},
                               {QStringLiteral("clock_offset_ns"), lane.clockOffsetNs},
                               {QStringLiteral("clock_error_ns"), lane.clockErrorNs},
                               {QStringLiteral("clock_drift_ns"), lane.clockDriftNs},
                               {QStringLiteral("start_us"), lane.startMicros},
                               {QStringLiteral("cores"), lane.cores},
                               {QStringLiteral("point"), ResultBundle::pointToJson(p)}});
    }
    return out;
}

std::vector<AgentLane> AgentLane::fromJson(const QJsonArray &lanes)
{
    std::vector<AgentLane> out;
    for (const QJsonValue &value : lanes) {
        const QJsonObject o = value.toObject();
        AgentLane lane;
        lane.agent = o.value(QStringLiteral("agent")).toString();
        lane.finished = o.value(QStringLiteral("finished")).toBool();
        lane.clockOffsetNs = o.value(QStringLiteral("clock_offset_ns")).toInteger();
        lane.clockErrorNs = o.value(QStringLiteral("clock_error_ns")).toInteger();
        lane.clockDriftNs = o.value(QStringLiteral("clock_drift_ns")).toInteger();
        lane.startMicros = o.value(QStringLiteral("start_us")).toInteger();
        lane.cores = o.value(QStringLiteral("cores")).toInt();
        PointResult p;
        if (ResultBundle::pointFromJson(o.value(QStringLiteral("point")).toObject(), &p)) {
            lane.load = std::move(p.load);
            lane.samples = std::move(p.clientSamples);
        }
        out.push_back(std::move(lane));
    }
    return out;
}

} // namespace servelab::lab
