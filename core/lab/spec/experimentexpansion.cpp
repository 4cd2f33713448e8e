// SPDX-License-Identifier: Apache-2.0
// ExperimentSpec's expansion into the targets a run makes: each builtin target once per sweep
// value, under each load, at each concurrency and offered rate, over each transport.
#include "experimentspec.h"

#include "clientkey.h"

namespace servelab::lab {

QList<SweepSpec> ExperimentSpec::expanded() const
{
    const QList<SweepSpec> loaded = expandedLoads();
    if (transports.isEmpty())
        return loaded;
    QList<SweepSpec> out;
    for (const SweepSpec &t : loaded) {
        for (const QString &transport : transports) {
            SweepSpec over = t;
            over.transport = transport;
            // Plain http alone needs no word; beside https it names its series.
            if (transports.size() > 1 || transport != u"http")
                over.variant = (t.variant.isEmpty() ? QString() : t.variant + u' ') + transport;
            out << over;
        }
    }
    return out;
}

QList<SweepSpec> ExperimentSpec::expandedLoads() const
{
    const QList<SweepSpec> base = sweepOption.isEmpty() ? targets : expandedOption();
    if (loads.size() < 2)
        return expandedLevels(base, concurrencies, rates);
    QList<SweepSpec> out;
    for (const SweepSpec &t : base) {
        for (const ClientLoad &load : loads) {
            SweepSpec loaded = t;
            load.applyTo(&loaded);
            loaded.variant = (t.variant.isEmpty() ? QString() : t.variant + u' ') + load.name;
            out << expandedLevels({loaded}, load.concurrencies, load.rates);
        }
    }
    return out;
}

// Each target at each concurrency, then each of those at each offered rate.
QList<SweepSpec> ExperimentSpec::expandedLevels(const QList<SweepSpec> &targets,
                                                const QList<int> &concurrencies,
                                                const QList<qint64> &rates)
{
    QList<SweepSpec> levels;
    for (const SweepSpec &t : targets) {
        if (concurrencies.size() < 2) {
            levels << t;
            continue;
        }
        for (int c : concurrencies) {
            SweepSpec level = t;
            level.concurrency = c;
            level.variant = (t.variant.isEmpty() ? QString() : t.variant + u' ') +
                            QStringLiteral("c=%1").arg(c);
            levels << level;
        }
    }
    if (rates.size() < 2)
        return levels;
    QList<SweepSpec> out;
    for (const SweepSpec &t : levels) {
        for (qint64 rate : rates) {
            SweepSpec offered = t;
            offered.ratePerSecond = rate;
            offered.variant =
                (t.variant.isEmpty() ? QString() : t.variant + u' ') + rateVariant(rate);
            out << offered;
        }
    }
    return out;
}

void ClientLoad::applyTo(SweepSpec *t) const
{
    t->model = client.model;
    t->concurrency = client.concurrency;
    t->timeoutMs = client.timeoutMs;
    t->keepAlive = client.keepAlive;
    for (const ClientKey &key : ClientKey::all())
        key.set(t, key.get(client));
}

QString ExperimentSpec::rateVariant(qint64 rate)
{
    return QStringLiteral("R=%1").arg(rate);
}

QList<SweepSpec> ExperimentSpec::expandedOption() const
{
    QList<SweepSpec> out;
    for (const SweepSpec &t : targets) {
        if (t.kind() != TargetKind::Builtin) {
            out << t; // an external server takes no serve flags: measured once
            continue;
        }
        for (const QString &value : sweepValues) {
            SweepSpec variant = t;
            variant.serverArguments << QStringLiteral("--") + sweepOption << value;
            variant.variant = sweepOption + u'=' + value;
            out << variant;
        }
    }
    return out;
}

} // namespace servelab::lab
