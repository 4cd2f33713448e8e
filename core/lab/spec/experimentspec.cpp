// SPDX-License-Identifier: Apache-2.0
#include "experimentspec.h"

#include "clientkey.h"
#include "clientrules.h"
#include "lab/run/docrootgenerator.h"
#include "lab/run/experimentmodel.h"
#include "lab/targets/externalserver.h"
#include "serveroptiontable.h"
#include "sizelist.h"
#include "specreader.h"

#include <QJsonArray>

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <limits>

namespace servelab::lab {

namespace {

// "rates": [1000, 2000, ...] or {"from": 1000, "to": 10000, "step": 1000}, each in the rate's
// range, each once, in the order given.
QList<qint64> readRates(SpecReader &r, const QJsonValue &value, const QString &at)
{
    const SpecField &field = SpecFields::rate;
    constexpr int most = 1000;
    QList<qint64> out;
    if (value.isArray()) {
        const QJsonArray list = value.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonObject one{{QStringLiteral("r"), list[i]}};
            const qint64 rate =
                r.integer(one, QStringLiteral("r"), QStringLiteral("%1[%2]").arg(at).arg(i), -1,
                          field.low, field.high);
            if (rate > 0 && !out.contains(rate))
                out << rate;
        }
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        r.onlyKnown(o, at, {QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("step")});
        const qint64 from = r.integer(o, QStringLiteral("from"), at + QStringLiteral(".from"), -1,
                                      field.low, field.high);
        const qint64 to = r.integer(o, QStringLiteral("to"), at + QStringLiteral(".to"), -1,
                                    field.low, field.high);
        const qint64 step =
            r.integer(o, QStringLiteral("step"), at + QStringLiteral(".step"), -1, 1, field.high);
        if (from < 0 || to < 0 || step < 0)
            return {};
        if (from > to || (to - from) / step + 1 > most) {
            r.fail(at, QStringLiteral("wants from <= to and at most %1 rates").arg(most));
            return {};
        }
        for (qint64 rate = from; rate <= to; rate += step)
            out << rate;
    }
    if (out.isEmpty() || out.size() > most)
        r.fail(at, QStringLiteral("wants a list of rates, as [1000, 2000], or {\"from\": 1000, "
                                  "\"to\": 10000, \"step\": 1000}, at most %1")
                       .arg(most));
    return out.size() > most ? QList<qint64>() : out;
}

} // namespace

bool ExperimentSpec::parse(const QByteArray &text, const QString &fileName, ExperimentSpec *spec,
                           QStringList *errors)
{
    errors->clear();
    QJsonParseError syntax{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &syntax);
    if (syntax.error != QJsonParseError::NoError) {
        const auto at = JsonLocator::positionIn(text, syntax.offset);
        *errors << QStringLiteral("%1:%2:%3: not JSON: %4")
                       .arg(fileName)
                       .arg(at.line)
                       .arg(at.column)
                       .arg(syntax.errorString());
        return false;
    }
    SpecReader r(text, fileName, errors);
    if (!document.isObject()) {
        r.fail(QString(), QStringLiteral("wants a JSON object with \"servelab\": 1"));
        return false;
    }
    const QJsonObject root = document.object();
    r.onlyKnown(root, QString(),
                {QStringLiteral("servelab"), QStringLiteral("name"), QStringLiteral("targets"),
                 QStringLiteral("sizes"), QStringLiteral("document_root"), QStringLiteral("client"),
                 QStringLiteral("repetitions"), QStringLiteral("point_deadline_ms"),
                 QStringLiteral("warmup_requests"), QStringLiteral("cooldown_ms"),
                 QStringLiteral("sweep")});
    if (root.value(QStringLiteral("servelab")).toInt(-1) != 1 ||
        !root.value(QStringLiteral("servelab")).isDouble())
        r.fail(root.contains(QStringLiteral("servelab")) ? QStringLiteral("servelab") : QString(),
               QStringLiteral("this ServeLab reads spec version 1: write \"servelab\": 1"));

    ExperimentSpec out;
    out.name = r.text(root, QStringLiteral("name"), QStringLiteral("name"), QString());
    namespace F = SpecFields;
    out.repetitions = int(r.integer(root, F::repetitions, {}));
    SweepSpec shared = SweepSpec::defaults();
    shared.pointDeadlineMs = int(r.integer(root, F::pointDeadlineMs, {}));
    // The document root: a folder to generate into, or how to generate it, or one to use as is.
    if (const QJsonValue docroot = root.value(QStringLiteral("document_root"));
        docroot.isString()) {
        shared.root = r.text(root, QStringLiteral("document_root"), QStringLiteral("document_root"),
                             QString());
    } else if (docroot.isObject()) {
        const QJsonObject o = docroot.toObject();
        const QString at = QStringLiteral("document_root.");
        r.onlyKnown(o, QStringLiteral("document_root"),
                    {QStringLiteral("path"), QStringLiteral("content"),
                     QStringLiteral("files_per_size"), QStringLiteral("generate")});
        shared.root = r.text(o, QStringLiteral("path"), at + QStringLiteral("path"), QString());
        shared.content =
            r.text(o, QStringLiteral("content"), at + QStringLiteral("content"), shared.content);
        if (DocRootGenerator::Content kind;
            !DocRootGenerator::parseContent(shared.content, &kind)) {
            r.fail(at + QStringLiteral("content"),
                   QStringLiteral("wants \"random\" (incompressible) or \"zeros\""));
            shared.content = QStringLiteral("random");
        }
        shared.filesPerSize = int(r.integer(o, F::filesPerSize, {}));
        shared.generateRoot =
            r.boolean(o, QStringLiteral("generate"), at + QStringLiteral("generate"), true);
        if (!shared.generateRoot && shared.root.isEmpty())
            r.fail(at + QStringLiteral("generate"),
                   QStringLiteral("a folder ServeLab does not generate needs its \"path\""));
    } else if (!docroot.isUndefined()) {
        r.fail(QStringLiteral("document_root"),
               QStringLiteral("wants a folder, or {\"path\": DIR, \"content\": \"random\" or "
                              "\"zeros\", \"files_per_size\": N, \"generate\": true}"));
    }
    shared.warmupRequests = quint64(r.integer(root, F::warmupRequests, {}));
    shared.cooldownMs = int(r.integer(root, F::cooldownMs, {}));
    if (const QJsonValue sweep = root.value(QStringLiteral("sweep")); !sweep.isUndefined()) {
        const QJsonObject o = sweep.toObject();
        r.onlyKnown(o, QStringLiteral("sweep"),
                    {QStringLiteral("option"), QStringLiteral("values")});
        const QString option = o.value(QStringLiteral("option")).toString();
        const QJsonArray values = o.value(QStringLiteral("values")).toArray();
        if (!sweep.isObject() || option.isEmpty() || values.isEmpty()) {
            r.fail(QStringLiteral("sweep"),
                   QStringLiteral("wants {\"option\": NAME, \"values\": [...]} with at least one "
                                  "value"));
        } else if (r.flagName(option, QStringLiteral("sweep.option"), false)) {
            out.sweepOption = option;
            for (qsizetype i = 0; i < values.size(); ++i) {
                QString text;
                if (r.flagValue(values[i], QStringLiteral("sweep.values[%1]").arg(i), &text))
                    out.sweepValues << text;
            }
        }
    }

    const QJsonValue sizes = root.value(QStringLiteral("sizes"));
    if (!sizes.isUndefined()) {
        QString list;
        if (sizes.isString()) {
            list = sizes.toString();
        } else if (sizes.isArray()) {
            QStringList parts;
            for (const QJsonValue &size : sizes.toArray())
                parts << (size.isString() ? size.toString() : QStringLiteral("?"));
            list = parts.join(u',');
        }
        QString why;
        if (list.isEmpty() || !parseSizeList(list, &shared.sizes, &why))
            r.fail(QStringLiteral("sizes"),
                   QStringLiteral("wants sizes like [\"4K\", \"1M\"] or \"4K..32M\"%1")
                       .arg(why.isEmpty() ? QString() : QStringLiteral(" (") + why + u')'));
    }

    const QJsonValue clientValue = root.value(QStringLiteral("client"));
    if (!clientValue.isUndefined() && !clientValue.isObject())
        r.fail(QStringLiteral("client"), QStringLiteral("wants an object"));
    const QJsonObject client = clientValue.toObject();
    const QString modelName = r.text(client, QStringLiteral("model"),
                                     QStringLiteral("client.model"), QStringLiteral("closed"));
    const auto model = client::parseLoadModel(modelName.toStdString());
    if (!model) {
        QStringList names;
        for (const ExperimentModel &row : ExperimentModel::all())
            names << QStringLiteral("\"%1\" (%2)")
                         .arg(QLatin1String(client::loadModelName(row.model)),
                              QLatin1String(row.title));
        r.fail(QStringLiteral("client.model"),
               QStringLiteral("wants one of %1").arg(names.join(QStringLiteral(", "))));
    }
    shared.model = model.value_or(client::LoadModel::Closed);
    const ExperimentModel &clientModel = ExperimentModel::of(shared.model);
    // The keys every model takes are read here; the others are ClientKey's rows, each taken
    // by the models whose rows name it.
    QStringList knownKeys{QStringLiteral("model"), QStringLiteral("concurrency"),
                          QStringLiteral("timeout_ms"), QStringLiteral("rates")};
    for (const ClientKey &key : ClientKey::all())
        knownKeys << QLatin1String(key.key);
    r.onlyKnown(client, QStringLiteral("client"), knownKeys);
    for (const ClientKey &key : ClientKey::all()) {
        const QJsonValue value = client.value(QLatin1String(key.key));
        const QString at = QStringLiteral("client.") + QLatin1String(key.key);
        if (value.isUndefined())
            continue;
        if (!clientModel.takes(key))
            r.fail(at, QStringLiteral("applies to %1").arg(ExperimentModel::takenBy(key)), true);
        else if (const QString what = key.problem(value); !what.isEmpty())
            r.fail(at, what);
        else
            key.set(&shared, value);
    }
    // A model that does not take keep_alive keeps its connections alive (wrk, wrk2).
    if (const ClientKey *keepAlive = ClientKey::find(u"keep_alive"); !clientModel.takes(*keepAlive))
        shared.keepAlive = true;
    // One concurrency, or a list to sweep over: every target is run at each.
    if (const QJsonValue levels = client.value(QStringLiteral("concurrency")); levels.isArray()) {
        const QJsonArray list = levels.toArray();
        if (list.isEmpty())
            r.fail(QStringLiteral("client.concurrency"),
                   QStringLiteral("wants a number or a list of numbers, as [1, 10, 100]"));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonObject one{{QStringLiteral("c"), list[i]}};
            const int c = int(r.integer(one, QStringLiteral("c"),
                                        QStringLiteral("client.concurrency[%1]").arg(i), -1,
                                        F::concurrency.low, F::concurrency.high));
            if (c > 0 && !out.concurrencies.contains(c))
                out.concurrencies << c;
        }
        if (!out.concurrencies.isEmpty())
            shared.concurrency =
                *std::max_element(out.concurrencies.begin(), out.concurrencies.end());
        if (out.concurrencies.size() == 1)
            out.concurrencies.clear();
    } else {
        shared.concurrency = int(r.integer(client, F::concurrency, {}));
    }
    // Several offered rates (latency against offered load): every target is run at each.
    if (const QJsonValue rates = client.value(QStringLiteral("rates")); !rates.isUndefined()) {
        const QString at = QStringLiteral("client.rates");
        const ClientKey &rate = *ClientKey::find(u"rate");
        if (!clientModel.takes(rate))
            r.fail(at, QStringLiteral("applies to %1").arg(ExperimentModel::takenBy(rate)), true);
        else if (client.contains(QStringLiteral("rate")))
            r.fail(at,
                   QStringLiteral("give client.rate (one rate) or client.rates (several), not "
                                  "both"),
                   true);
        else
            out.rates = readRates(r, rates, at);
        if (!out.rates.isEmpty())
            shared.ratePerSecond = out.rates.first();
        if (out.rates.size() == 1)
            out.rates.clear();
    }
    shared.timeoutMs = int(r.integer(client, F::timeoutMs, {}));
    const int fewest = out.concurrencies.isEmpty()
                           ? shared.concurrency
                           : *std::min_element(out.concurrencies.begin(), out.concurrencies.end());
    if (const auto problem = ClientRules::check(
            {clientModel.countsRequests, qint64(shared.requests),
             clientModel.countsRequests ? shared.concurrency : fewest, shared.clientThreads},
            FieldNaming::Spec))
        r.fail(QString::fromLatin1(problem.field->path), problem.what);

    const QJsonValue targets = root.value(QStringLiteral("targets"));
    if (!targets.isArray() || targets.toArray().isEmpty())
        r.fail(QStringLiteral("targets"),
               QStringLiteral("wants a list of targets, as [{\"builtin\": \"epoll+sendfile\"}]"));
    const QJsonArray list = targets.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString path = QStringLiteral("targets[%1]").arg(i);
        if (!list[i].isObject()) {
            r.fail(path, QStringLiteral("wants an object"));
            continue;
        }
        const QJsonObject t = list[i].toObject();
        r.onlyKnown(t, path,
                    {QStringLiteral("builtin"), QStringLiteral("external"), QStringLiteral("url"),
                     QStringLiteral("pid"), QStringLiteral("threads"), QStringLiteral("isolated"),
                     QStringLiteral("fd_limit"), QStringLiteral("options")});
        SweepSpec sweep = shared;
        const bool builtin = t.contains(QStringLiteral("builtin"));
        const bool url = t.contains(QStringLiteral("url"));
        if (int(builtin) + int(url) + int(t.contains(QStringLiteral("external"))) != 1) {
            r.fail(path, QStringLiteral("wants one of \"builtin\": MODE, \"external\": NAME or "
                                        "\"url\": \"http://HOST:PORT/FOLDER/\""));
            continue;
        }
        if (!url && t.contains(QStringLiteral("pid")))
            r.fail(path + QStringLiteral(".pid"),
                   QStringLiteral("applies to url targets (ServeLab knows its own servers' pids)"),
                   true);
        if (url && t.contains(QStringLiteral("threads")))
            r.fail(path + QStringLiteral(".threads"),
                   QStringLiteral("a url target is already running: its threads are its own"),
                   true);
        if (builtin) {
            sweep.target = QStringLiteral("builtin");
            sweep.mode =
                r.text(t, QStringLiteral("builtin"), path + QStringLiteral(".builtin"), sweep.mode);
        } else if (url) {
            sweep.target = QStringLiteral("url:") + r.text(t, QStringLiteral("url"),
                                                           path + QStringLiteral(".url"),
                                                           QStringLiteral("http://127.0.0.1/"));
            sweep.watchPid = r.integer(t, F::pid, path + QStringLiteral(".pid"));
        } else {
            sweep.target = r.text(t, QStringLiteral("external"), path + QStringLiteral(".external"),
                                  QStringLiteral("nginx"));
        }
        sweep.serverThreads =
            int(r.integer(t, F::serverThreads, path + QStringLiteral(".threads")));
        sweep.isolated =
            r.boolean(t, QStringLiteral("isolated"), path + QStringLiteral(".isolated"), false);
        sweep.fdLimit = int(r.integer(t, F::fdLimit, path + QStringLiteral(".fd_limit")));
        if (const QJsonValue options = t.value(QStringLiteral("options")); !options.isUndefined()) {
            if (!options.isObject())
                r.fail(path + QStringLiteral(".options"),
                       QStringLiteral("wants an object of serve options, as {\"chunk\": 81000}"));
            const QJsonObject o = options.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QString at = path + QStringLiteral(".options.") + it.key();
                QString text;
                if (r.flagName(it.key(), at, true) && r.flagValue(it.value(), at, &text))
                    sweep.serverArguments << QStringLiteral("--") + it.key() << text;
            }
        }
        if (!builtin && (sweep.isolated || sweep.fdLimit || !sweep.serverArguments.isEmpty()))
            r.fail(path, QStringLiteral("isolated, fd_limit and options apply to builtin targets"));
        // What is left to check (the mode, the template, the limit's range) is the sweep's.
        if (errors->isEmpty())
            if (const QString problem = sweep.validate(); !problem.isEmpty())
                r.fail(path, problem);
        out.targets << sweep;
    }
    // Each target as the runner expands it, with the swept option's values: a value the
    // server would refuse is refused here, before anything runs.
    if (errors->isEmpty() && !out.sweepOption.isEmpty())
        for (const SweepSpec &variant : out.expanded())
            if (const QString problem = variant.validate(); !problem.isEmpty()) {
                r.fail(QStringLiteral("sweep"),
                       QStringLiteral("%1 (%2)").arg(problem, variant.label()));
                break;
            }
    if (!errors->isEmpty())
        return false;
    *spec = out;
    return true;
}

QList<SweepSpec> ExperimentSpec::expanded() const
{
    QList<SweepSpec> out = sweepOption.isEmpty() ? targets : expandedOption();
    if (concurrencies.size() < 2)
        return expandedRates(out);
    QList<SweepSpec> levels;
    for (const SweepSpec &t : out) {
        for (int c : concurrencies) {
            SweepSpec level = t;
            level.concurrency = c;
            level.variant = (t.variant.isEmpty() ? QString() : t.variant + u' ') +
                            QStringLiteral("c=%1").arg(c);
            levels << level;
        }
    }
    return expandedRates(levels);
}

QList<SweepSpec> ExperimentSpec::expandedRates(const QList<SweepSpec> &targets) const
{
    if (rates.size() < 2)
        return targets;
    QList<SweepSpec> out;
    for (const SweepSpec &t : targets) {
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

QByteArray ExperimentSpec::toJson() const
{
    QJsonObject root;
    root.insert(QStringLiteral("servelab"), 1);
    if (!name.isEmpty())
        root.insert(QStringLiteral("name"), name);
    QJsonArray targetList;
    for (const SweepSpec &t : targets) {
        QJsonObject target;
        if (t.isUrl()) {
            target.insert(QStringLiteral("url"), t.url());
            if (t.watchPid)
                target.insert(QStringLiteral("pid"), t.watchPid);
            targetList.append(target);
            continue;
        }
        if (t.kind() == TargetKind::Builtin) {
            target.insert(QStringLiteral("builtin"), t.mode);
            target.insert(QStringLiteral("isolated"), t.runsIsolated());
            target.insert(QStringLiteral("fd_limit"), t.fdLimit);
            QJsonObject options;
            for (qsizetype i = 0; i + 1 < t.serverArguments.size(); i += 2)
                options.insert(t.serverArguments[i].mid(2), t.serverArguments[i + 1]);
            if (!options.isEmpty())
                target.insert(QStringLiteral("options"), options);
        } else {
            target.insert(QStringLiteral("external"), t.target);
        }
        target.insert(QStringLiteral("threads"), t.serverThreads);
        targetList.append(target);
    }
    root.insert(QStringLiteral("targets"), targetList);
    if (!targets.isEmpty()) {
        const SweepSpec &s = targets.first();
        QJsonArray sizes;
        for (quint64 size : s.sizes)
            sizes.append(formatSize(size));
        root.insert(QStringLiteral("sizes"), sizes);
        QJsonObject docroot{{QStringLiteral("content"), s.content},
                            {QStringLiteral("files_per_size"), s.filesPerSize},
                            {QStringLiteral("generate"), s.generateRoot}};
        if (!s.root.isEmpty())
            docroot.insert(QStringLiteral("path"), s.root);
        root.insert(QStringLiteral("document_root"), docroot);
        QJsonArray levels;
        for (int c : concurrencies)
            levels.append(c);
        QJsonObject client{{QStringLiteral("model"), QLatin1String(client::loadModelName(s.model))},
                           {QStringLiteral("concurrency"), concurrencies.size() > 1
                                                               ? QJsonValue(levels)
                                                               : QJsonValue(s.concurrency)},
                           {QStringLiteral("timeout_ms"), s.timeoutMs}};
        for (const char *key : ExperimentModel::of(s.model).keys)
            client.insert(QLatin1String(key), ClientKey::find(QLatin1String(key))->get(s));
        if (rates.size() > 1) {
            QJsonArray list;
            for (qint64 rate : rates)
                list.append(rate);
            client.remove(QStringLiteral("rate"));
            client.insert(QStringLiteral("rates"), list);
        }
        root.insert(QStringLiteral("client"), client);
        root.insert(QStringLiteral("point_deadline_ms"), s.pointDeadlineMs);
        root.insert(QStringLiteral("warmup_requests"), qint64(s.warmupRequests));
        root.insert(QStringLiteral("cooldown_ms"), s.cooldownMs);
    }
    root.insert(QStringLiteral("repetitions"), repetitions);
    if (!sweepOption.isEmpty())
        root.insert(
            QStringLiteral("sweep"),
            QJsonObject{{QStringLiteral("option"), sweepOption},
                        {QStringLiteral("values"), QJsonArray::fromStringList(sweepValues)}});
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace servelab::lab
