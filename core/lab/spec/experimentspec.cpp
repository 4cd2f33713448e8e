// SPDX-License-Identifier: Apache-2.0
#include "experimentspec.h"

#include "transport.h"

#include "clientkey.h"
#include "clientrules.h"
#include "docrootgenerator.h"
#include "experimentmodel.h"
#include "ratelist.h"
#include "serveroptiontable.h"
#include "servertemplate.h"
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

// Reads a spec's "client" object (or one of its "clients", `at` naming which) into `c`, a list
// of concurrencies into *levels and of offered rates into *rates; `name`: the load's name
// (null for "client", which takes none).
void readClient(SpecReader &r, const QJsonValue &clientValue, const QString &at, SweepSpec *c,
                QList<int> *levels, QList<qint64> *rates, QString *name)
{
    namespace F = SpecFields;
    if (!clientValue.isUndefined() && !clientValue.isObject())
        r.fail(at, QStringLiteral("wants an object"));
    const QJsonObject client = clientValue.toObject();
    const QString dot = at + u'.';
    const QString modelName = r.text(client, QStringLiteral("model"), dot + QStringLiteral("model"),
                                     QStringLiteral("closed"));
    const auto model = client::parseLoadModel(modelName.toStdString());
    if (!model) {
        QStringList names;
        for (const ExperimentModel &row : ExperimentModel::all())
            names << QStringLiteral("\"%1\" (%2)")
                         .arg(QLatin1String(client::loadModelName(row.model)),
                              QLatin1String(row.title));
        r.fail(dot + QStringLiteral("model"),
               QStringLiteral("wants one of %1").arg(names.join(QStringLiteral(", "))));
    }
    c->model = model.value_or(client::LoadModel::Closed);
    const ExperimentModel &clientModel = ExperimentModel::of(c->model);
    // The keys every model takes are read here; the others are ClientKey's rows, each taken
    // by the models whose rows name it.
    QStringList knownKeys{QStringLiteral("model"), QStringLiteral("concurrency"),
                          QStringLiteral("timeout_ms"), QStringLiteral("rates")};
    if (name)
        knownKeys << QStringLiteral("name");
    for (const ClientKey &key : ClientKey::all())
        knownKeys << QLatin1String(key.key);
    r.onlyKnown(client, at, knownKeys);
    for (const ClientKey &key : ClientKey::all()) {
        const QJsonValue value = client.value(QLatin1String(key.key));
        const QString path = dot + QLatin1String(key.key);
        if (value.isUndefined())
            continue;
        if (!clientModel.takes(key))
            r.fail(path, QStringLiteral("applies to %1").arg(ExperimentModel::takenBy(key)), true);
        else if (const QString what = key.problem(value); !what.isEmpty())
            r.fail(path, what);
        else
            key.set(c, value);
    }
    // A model that does not take keep_alive keeps its connections alive (wrk, wrk2).
    if (const ClientKey *keepAlive = ClientKey::find(u"keep_alive"); !clientModel.takes(*keepAlive))
        c->keepAlive = true;
    // One concurrency, or a list to sweep over: every target is run at each.
    if (const QJsonValue list = client.value(QStringLiteral("concurrency")); list.isArray()) {
        const QJsonArray values = list.toArray();
        if (values.isEmpty())
            r.fail(dot + QStringLiteral("concurrency"),
                   QStringLiteral("wants a number or a list of numbers, as [1, 10, 100]"));
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QJsonObject one{{QStringLiteral("c"), values[i]}};
            const int level = int(r.integer(one, QStringLiteral("c"),
                                            dot + QStringLiteral("concurrency[%1]").arg(i), -1,
                                            F::concurrency.low, F::concurrency.high));
            if (level > 0 && !levels->contains(level))
                *levels << level;
        }
        if (!levels->isEmpty())
            c->concurrency = *std::max_element(levels->begin(), levels->end());
        if (levels->size() == 1)
            levels->clear();
    } else {
        c->concurrency =
            int(r.integer(client, F::concurrency, dot + QStringLiteral("concurrency")));
    }
    // Several offered rates (latency against offered load): every target is run at each.
    if (const QJsonValue list = client.value(QStringLiteral("rates")); !list.isUndefined()) {
        const QString path = dot + QStringLiteral("rates");
        const ClientKey &rate = *ClientKey::find(u"rate");
        if (!clientModel.takes(rate))
            r.fail(path, QStringLiteral("applies to %1").arg(ExperimentModel::takenBy(rate)), true);
        else if (client.contains(QStringLiteral("rate")))
            r.fail(path,
                   QStringLiteral("give %1rate (one rate) or %1rates (several), not both").arg(dot),
                   true);
        else
            *rates = readRateList(r, list, path);
        if (!rates->isEmpty())
            c->ratePerSecond = rates->first();
        if (rates->size() == 1)
            rates->clear();
    }
    c->timeoutMs = int(r.integer(client, F::timeoutMs, dot + QStringLiteral("timeout_ms")));
    const int fewest =
        levels->isEmpty() ? c->concurrency : *std::min_element(levels->begin(), levels->end());
    if (const auto problem = ClientRules::check(
            {clientModel.countsRequests, qint64(c->requests),
             clientModel.countsRequests ? c->concurrency : fewest, c->clientThreads},
            FieldNaming::Spec))
        r.fail(at + QString::fromLatin1(problem.field->path).mid(int(qstrlen("client"))),
               problem.what);
    if (name) // a load of "clients": its name, else its tool's ("ab", "wrk", "wrk2", "fhb")
        *name = r.text(client, QStringLiteral("name"), dot + QStringLiteral("name"),
                       clientModel.command(*c).section(u' ', 0, 0));
}

// "clients": several loads, every target run under each; each read as "client" is, with a
// name of its own.
void readClients(SpecReader &r, const QJsonObject &root, const SweepSpec &shared,
                 ExperimentSpec *out)
{
    const QJsonValue list = root.value(QStringLiteral("clients"));
    if (root.contains(QStringLiteral("client")))
        r.fail(QStringLiteral("clients"),
               QStringLiteral("give \"client\" (one load) or \"clients\" (several), not both"),
               true);
    if (!list.isArray() || list.toArray().isEmpty()) {
        r.fail(QStringLiteral("clients"),
               QStringLiteral("wants a list of clients, as [{\"name\": \"ab\", \"model\": "
                              "\"closed\"}, {\"name\": \"fhb\", \"model\": \"ramp\"}]"));
        return;
    }
    const QJsonArray loads = list.toArray();
    for (qsizetype i = 0; i < loads.size(); ++i) {
        ClientLoad load;
        load.client = shared;
        const QString at = QStringLiteral("clients[%1]").arg(i);
        readClient(r, loads[i], at, &load.client, &load.concurrencies, &load.rates, &load.name);
        for (const ClientLoad &other : out->loads)
            if (other.name == load.name)
                r.fail(at, QStringLiteral("another client is named '%1': give each its own "
                                          "\"name\"")
                               .arg(load.name));
        out->loads << load;
    }
    out->concurrencies = out->loads.first().concurrencies;
    out->rates = out->loads.first().rates;
}

// A load's "client" object: the keys every model takes, then those of its model's row.
QJsonObject clientJson(const SweepSpec &s, const QList<int> &concurrencies,
                       const QList<qint64> &rates)
{
    QJsonArray levels;
    for (int c : concurrencies)
        levels.append(c);
    QJsonObject client{{QStringLiteral("model"), QLatin1String(client::loadModelName(s.model))},
                       {QStringLiteral("concurrency"),
                        concurrencies.size() > 1 ? QJsonValue(levels) : QJsonValue(s.concurrency)},
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
    return client;
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
                 QStringLiteral("sweep"), QStringLiteral("clients"), QStringLiteral("transport"),
                 QStringLiteral("profile"), QStringLiteral("hosts")});
    if (root.value(QStringLiteral("servelab")).toInt(-1) != 1 ||
        !root.value(QStringLiteral("servelab")).isDouble())
        r.fail(root.contains(QStringLiteral("servelab")) ? QStringLiteral("servelab") : QString(),
               QStringLiteral("this ServeLab reads spec version 1: write \"servelab\": 1"));

    ExperimentSpec out;
    out.name = r.text(root, QStringLiteral("name"), QStringLiteral("name"), QString());
    out.hosts = r.text(root, QStringLiteral("hosts"), QStringLiteral("hosts"), QString());
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
    if (const QJsonValue profile = root.value(QStringLiteral("profile")); !profile.isUndefined())
        if (QString why; !ProfileRequest::parse(profile, &shared.profile, &why))
            r.fail(QStringLiteral("profile"), why);
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

    if (const QJsonValue transport = root.value(QStringLiteral("transport"));
        !transport.isUndefined()) {
        const QJsonArray entries =
            transport.isArray() ? transport.toArray() : QJsonArray{transport};
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const QString at = transport.isArray() ? QStringLiteral("transport[%1]").arg(i)
                                                   : QStringLiteral("transport");
            Transport parsed;
            QString why;
            if (!entries[i].isString() || !Transport::parse(entries[i].toString(), &parsed, &why))
                r.fail(at, why.isEmpty() ? QStringLiteral("wants \"http\", \"https\", \"h2c\" or "
                                                          "\"h2\"")
                                         : why);
            else if (out.transports.contains(entries[i].toString()))
                r.fail(at, QStringLiteral("\"%1\" is listed twice").arg(entries[i].toString()));
            else
                out.transports << entries[i].toString();
        }
        if (entries.isEmpty())
            r.fail(QStringLiteral("transport"), QStringLiteral("wants at least one of \"http\", "
                                                               "\"https\", \"h2c\", \"h2\""));
    }

    if (root.contains(QStringLiteral("clients")))
        readClients(r, root, shared, &out);
    else
        readClient(r, root.value(QStringLiteral("client")), QStringLiteral("client"), &shared,
                   &out.concurrencies, &out.rates, nullptr);
    if (!out.loads.isEmpty()) // the targets carry the first load, as they carry "client"
        out.loads.first().applyTo(&shared);
    if (out.loads.size() == 1) // one load is "client"
        out.loads.clear();

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
                     QStringLiteral("fd_limit"), QStringLiteral("options"), QStringLiteral("label"),
                     QStringLiteral("if_installed"), QStringLiteral("tune")});
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
        sweep.caption =
            r.text(t, QStringLiteral("label"), path + QStringLiteral(".label"), QString())
                .trimmed();
        sweep.isolated = r.boolean(t, QStringLiteral("isolated"),
                                   path + QStringLiteral(".isolated"), sweep.isolated);
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
        sweep.tune =
            TunePlan::read(r, t.value(QStringLiteral("tune")), path + QStringLiteral(".tune"));
        if (!builtin && (t.contains(QStringLiteral("isolated")) || sweep.fdLimit ||
                         !sweep.serverArguments.isEmpty()))
            r.fail(path, QStringLiteral("isolated, fd_limit and options apply to builtin targets"));
        // What is left to check (the mode, the template, the limit's range) is the sweep's.
        if (errors->isEmpty())
            if (const QString problem = sweep.validate(); !problem.isEmpty())
                r.fail(path, problem);
        // "if_installed": a real server that runs where it is installed and is left out, with a
        // line saying so, where it is not (the strategies preset's nginx).
        const bool optional = sweep.ifInstalled = r.boolean(
            t, QStringLiteral("if_installed"), path + QStringLiteral(".if_installed"), false);
        if (optional && sweep.kind() != TargetKind::Template)
            r.fail(path + QStringLiteral(".if_installed"),
                   QStringLiteral("applies to real servers ServeLab launches (\"external\")"));
        if (optional && !ServerTemplate::notInstalled(sweep.target).isEmpty()) {
            out.leftOut << QStringLiteral("%1 left out: not installed here (apt-get install %2)")
                               .arg(sweep.label(), ServerTemplate::packagesFor(sweep.target));
            continue;
        }
        out.targets << sweep;
    }
    if (errors->isEmpty() && out.targets.isEmpty())
        r.fail(QStringLiteral("targets"),
               QStringLiteral("every target is left out (%1): install one, or add a target that "
                              "runs here")
                   .arg(out.leftOut.join(QStringLiteral("; "))));
    // Each target as the runner expands it, with the swept option's values and under each
    // load: a value the server would refuse, or a load a target cannot take, is refused here,
    // before anything runs.
    if (errors->isEmpty() &&
        (!out.sweepOption.isEmpty() || !out.loads.isEmpty() || !out.transports.isEmpty()))
        for (const SweepSpec &variant : out.expanded())
            if (const QString problem = variant.validate(); !problem.isEmpty()) {
                r.fail(!out.sweepOption.isEmpty() ? QStringLiteral("sweep")
                       : !out.loads.isEmpty()     ? QStringLiteral("clients")
                                                  : QStringLiteral("transport"),
                       QStringLiteral("%1 (%2)").arg(
                           problem, out.loads.isEmpty() && out.transports.isEmpty()
                                        ? variant.label()
                                        : variant.label() + u' ' + variant.variant));
                break;
            }
    if (!errors->isEmpty())
        return false;
    *spec = out;
    return true;
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
            target.insert(QStringLiteral("isolated"), t.isolated);
            target.insert(QStringLiteral("fd_limit"), t.fdLimit);
            QJsonObject options;
            for (qsizetype i = 0; i + 1 < t.serverArguments.size(); i += 2)
                options.insert(t.serverArguments[i].mid(2), t.serverArguments[i + 1]);
            if (!options.isEmpty())
                target.insert(QStringLiteral("options"), options);
            if (!t.tune.isEmpty())
                target.insert(QStringLiteral("tune"), TunePlan::toJson(t.tune));
        } else {
            target.insert(QStringLiteral("external"), t.target);
        }
        target.insert(QStringLiteral("threads"), t.serverThreads);
        if (!t.caption.isEmpty())
            target.insert(QStringLiteral("label"), t.caption);
        if (t.ifInstalled)
            target.insert(QStringLiteral("if_installed"), true);
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
        if (loads.size() < 2) {
            root.insert(QStringLiteral("client"), clientJson(s, concurrencies, rates));
        } else {
            QJsonArray list;
            for (const ClientLoad &load : loads) {
                QJsonObject one = clientJson(load.client, load.concurrencies, load.rates);
                one.insert(QStringLiteral("name"), load.name);
                list.append(one);
            }
            root.insert(QStringLiteral("clients"), list);
        }
        root.insert(QStringLiteral("point_deadline_ms"), s.pointDeadlineMs);
        root.insert(QStringLiteral("warmup_requests"), qint64(s.warmupRequests));
        root.insert(QStringLiteral("cooldown_ms"), s.cooldownMs);
        if (s.profile.enabled)
            root.insert(QStringLiteral("profile"), s.profile.toJson());
    }
    root.insert(QStringLiteral("repetitions"), repetitions);
    if (!hosts.isEmpty())
        root.insert(QStringLiteral("hosts"), hosts);
    if (!transports.isEmpty())
        root.insert(QStringLiteral("transport"),
                    transports.size() == 1 ? QJsonValue(transports.first())
                                           : QJsonValue(QJsonArray::fromStringList(transports)));
    if (!sweepOption.isEmpty())
        root.insert(
            QStringLiteral("sweep"),
            QJsonObject{{QStringLiteral("option"), sweepOption},
                        {QStringLiteral("values"), QJsonArray::fromStringList(sweepValues)}});
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace servelab::lab
