// SPDX-License-Identifier: Apache-2.0
#include "experimentmodel.h"

#include "transport.h"

#include "client/thinktime.h"
#include "clientkey.h"
#include "clientrules.h"
#include "sweepspec.h"

#include <QStringList>

#include <algorithm>

namespace servelab::lab {

namespace {

using client::LoadModel;

// The realism knobs no tool of the models has: `servelab-cli load`'s flags, after the command.
QString realism(const SweepSpec &s)
{
    QStringList flags;
    Transport transport;
    QString unused;
    if (Transport::parse(s.transport, &transport, &unused) && transport.http2)
        flags << QStringLiteral("--http2 -c %1 -m %2") // its -c is connections
                     .arg(s.concurrency / std::max(1, s.streams))
                     .arg(s.streams);
    if (s.closeAfter > 0)
        flags << QStringLiteral("--close-after %1").arg(s.closeAfter);
    if (s.closeProbability > 0)
        flags << QStringLiteral("--close-probability %1").arg(s.closeProbability);
    if (s.keepAliveThink != u"none")
        flags << QStringLiteral("--keepalive-think %1").arg(s.keepAliveThink);
    return flags.isEmpty() ? QString()
                           : QStringLiteral("  (and servelab-cli load's %1)").arg(flags.join(u' '));
}

QString seconds(int ms)
{
    return QString::number(ms / 1000);
}

// clang-format off
const ExperimentModel &closed()
{
    static const ExperimentModel row{
        LoadModel::Closed, "Closed: n requests, c at a time (ab)",
        {"requests", "keep_alive", "close_after", "close_probability", "keepalive_think", "http1_0",
         "ab_reads", "streams"},
        true,
        [](const SweepSpec &s) {
            return QStringLiteral("ab -n %1 -c %2%3 -s %4 URL")
                       .arg(s.requests)
                       .arg(s.concurrency)
                       .arg(s.keepAlive ? QStringLiteral(" -k") : QString())
                       .arg(std::max(1, s.timeoutMs / 1000)) +
                   realism(s);
        },
        [](SweepSpec *s) {
            s->requests = std::min<quint64>(s->requests, 30);
            s->concurrency = std::min<int>(s->concurrency, int(s->requests));
        }};
    return row;
}

const ExperimentModel &duration()
{
    static const ExperimentModel row{
        LoadModel::Duration, "Duration: d seconds over c connections (wrk)",
        {"seconds", "threads", "close_after", "close_probability", "keepalive_think", "streams"},
        false,
        [](const SweepSpec &s) {
            return QStringLiteral("wrk -d %1s -c %2 -t %3 --timeout %4s URL")
                       .arg(seconds(s.durationMs)).arg(s.concurrency).arg(s.clientThreads)
                       .arg(std::max(1, s.timeoutMs / 1000)) +
                   realism(s);
        },
        [](SweepSpec *s) { s->durationMs = std::min(s->durationMs, 1000); }};
    return row;
}

const ExperimentModel &rate()
{
    static const ExperimentModel row{
        LoadModel::Rate, "Rate: R requests/s offered for d seconds (wrk2)",
        {"rate", "seconds", "threads", "close_after", "close_probability", "streams"}, false,
        [](const SweepSpec &s) {
            return QStringLiteral("wrk2 -R %1 -d %2s -c %3 -t %4 --timeout %5s URL")
                       .arg(s.ratePerSecond).arg(seconds(s.durationMs)).arg(s.concurrency)
                       .arg(s.clientThreads).arg(std::max(1, s.timeoutMs / 1000)) +
                   realism(s);
        },
        [](SweepSpec *s) { s->durationMs = std::min(s->durationMs, 1000); }};
    return row;
}

const ExperimentModel &ramp()
{
    static const ExperimentModel row{
        LoadModel::Ramp, "Ramp: c users through ramp-up, steady state, ramp-down (faban fhb)",
        {"ramp_up_seconds", "steady_seconds", "ramp_down_seconds", "think", "threads", "keep_alive",
         "close_after", "close_probability", "streams"},
        false,
        [](const SweepSpec &s) {
            // fhb takes a fixed think time in ms (-W); the others are ServeLab's own.
            client::ThinkTime think;
            std::string why;
            client::ThinkTime::parse(s.think.toStdString(), &think, &why);
            const bool fixed = think.kind == client::ThinkTime::Kind::Fixed && !think.cycle;
            return QStringLiteral("fhb -r %1/%2/%3 -c %4%5 URL%6")
                .arg(seconds(s.rampUpMs), seconds(s.steadyMs), seconds(s.rampDownMs))
                .arg(s.concurrency)
                .arg(fixed ? QStringLiteral(" -W %1").arg(think.meanMs) : QString(),
                     fixed || think.kind == client::ThinkTime::Kind::None
                         ? QString()
                         : QStringLiteral("  (think time %1: not an fhb flag)").arg(s.think)) +
                   realism(s);
        },
        [](SweepSpec *s) {
            s->rampUpMs = std::min(s->rampUpMs, 1000);
            s->steadyMs = std::min(s->steadyMs, 1000);
            s->rampDownMs = 0;
        }};
    return row;
}
// clang-format on

const std::vector<ExperimentModel> &rows()
{
    static const std::vector<ExperimentModel> all{closed(), duration(), rate(), ramp()};
    return all;
}

} // namespace

bool ExperimentModel::takes(const ClientKey &key) const
{
    return std::any_of(keys.begin(), keys.end(),
                       [&](const char *name) { return qstrcmp(name, key.key) == 0; });
}

QString ExperimentModel::problem(const SweepSpec &spec, int fewest, FieldNaming naming) const
{
    for (const char *name : keys) {
        const ClientKey &key = *ClientKey::find(QLatin1String(name));
        const QJsonValue value = key.get(spec);
        if (key.field) {
            if (QString problem = key.field->problem(value.toInteger(), naming); !problem.isEmpty())
                return problem;
        } else if (QString what = key.problem(value); !what.isEmpty()) {
            const QString keyName = naming == FieldNaming::Label ? key.label()
                                    : naming == FieldNaming::Flag
                                        ? QStringLiteral("--") + QLatin1String(key.key)
                                        : QStringLiteral("client.") + QLatin1String(key.key);
            return keyName + QStringLiteral(": ") + what;
        }
    }
    namespace F = SpecFields;
    const qint64 asked =
        spec.requests > quint64(F::requests.high) ? F::requests.high + 1 : qint64(spec.requests);
    return ClientRules::check({countsRequests, asked, countsRequests ? spec.concurrency : fewest,
                               spec.clientThreads},
                              naming)
        .text(naming);
}

QString ExperimentModel::takenBy(const ClientKey &key)
{
    QStringList models;
    for (const ExperimentModel &row : rows())
        if (row.takes(key))
            models << QStringLiteral("\"%1\"").arg(QLatin1String(client::loadModelName(row.model)));
    return QStringLiteral("\"model\": ") + models.join(QStringLiteral(" or "));
}

std::span<const ExperimentModel> ExperimentModel::all()
{
    return rows();
}

const ExperimentModel &ExperimentModel::of(client::LoadModel model)
{
    for (const ExperimentModel &row : rows())
        if (row.model == model)
            return row;
    return rows().front(); // unreachable: every model has its row
}

} // namespace servelab::lab
