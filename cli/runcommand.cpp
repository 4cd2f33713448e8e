// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "interruptwatch.h"
#include "lab/results/humantext.h"
#include "lab/results/pointcost.h"
#include "lab/results/resultbundle.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "lab/run/experimentrunner.h"
#include "lab/spec/experimentmodel.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/sizelist.h"
#include "lab/spec/specsource.h"
#include "profilefiles.h"
#include "remote/hostfleet.h"
#include "runcharts.h"
#include "server/eventmodel.h"
#include "server/servermode.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace servelab::cli {

namespace {

// A load's lists under --smoke: offered rates, the lowest, one between and the highest; a
// concurrency sweep, the levels that fit the fewer requests (ab's c <= n).
void shrinkLevels(const lab::SweepSpec &client, QList<int> *levels, QList<qint64> *rates)
{
    if (rates->size() > 3)
        *rates = {rates->first(), (*rates)[rates->size() / 2], rates->last()};
    if (!lab::ExperimentModel::of(client.model).countsRequests)
        return;
    const int most = int(client.requests);
    QList<int> kept;
    for (int c : *levels)
        if (!kept.contains(std::min(c, most)))
            kept << std::min(c, most);
    *levels = kept.size() > 1 ? kept : QList<int>();
}

// What a preset is about stays under --smoke, smaller: more clients than threads in a thread per
// connection (seed 002's 300 against 150: the threads shrink with the clients, 30 against 15;
// other models' threads are event loops or workers, kept as they are) and more
// clients than descriptors (seed 000's 1,100 at 1024: 69 at 64; below 64 a server has too few
// left for its files, so there the clients grow instead).
void keepRatios(int clientsBefore, lab::SweepSpec *t)
{
    if (t->concurrency >= clientsBefore)
        return;
    server::ServerMode mode;
    const server::EventModel *model =
        t->kind() == lab::TargetKind::Builtin &&
                server::parseServerMode(t->mode.toStdString(), &mode, nullptr)
            ? server::findEventModel(mode.model)
            : nullptr;
    if (model && model->threadPerConnection)
        t->serverThreads =
            std::max(1, int(std::ceil(double(t->serverThreads) * t->concurrency / clientsBefore)));
    constexpr int fewestFds = 64;
    if (t->fdLimit > fewestFds && clientsBefore > t->fdLimit) {
        t->concurrency = int(std::ceil(double(fewestFds) * clientsBefore / t->fdLimit));
        t->fdLimit = fewestFds;
        if (lab::ExperimentModel::of(t->model).countsRequests)
            t->requests = std::max<quint64>(t->requests, quint64(t->concurrency));
    }
}

// --smoke: the same experiment in seconds (a handful of sizes, few requests and files, two
// repetitions), its phenomenon kept (keepRatios).
void shrink(lab::ExperimentSpec &spec)
{
    spec.repetitions = std::min(spec.repetitions, 2);
    for (auto &t : spec.targets) {
        if (t.sizes.size() > 3)
            t.sizes = {t.sizes.first(), t.sizes[t.sizes.size() / 2], t.sizes.last()};
        t.sizes.erase(std::remove_if(t.sizes.begin(), t.sizes.end(),
                                     [](quint64 s) { return s > (4u << 20); }),
                      t.sizes.end());
        if (t.sizes.isEmpty())
            t.sizes = {4096};
        const int clients = t.concurrency;
        const int planned = t.durationMs;
        lab::ExperimentModel::of(t.model).shrink(&t);
        // A timed point gets shorter: its tune steps come as far into it as they did.
        if (t.durationMs < planned)
            for (lab::TuneStep &step : t.tune)
                step.atMs = int(qint64(step.atMs) * t.durationMs / planned);
        keepRatios(clients, &t);
        t.pointDeadlineMs = std::min(t.pointDeadlineMs, 20000);
        t.warmupRequests = std::min<quint64>(t.warmupRequests, 10);
        t.cooldownMs = std::min(t.cooldownMs, 100);
        t.filesPerSize = std::min(t.filesPerSize, 10);
    }
    if (!spec.targets.isEmpty())
        shrinkLevels(spec.targets.first(), &spec.concurrencies, &spec.rates);
    for (lab::ClientLoad &load : spec.loads) {
        lab::ExperimentModel::of(load.client.model).shrink(&load.client);
        shrinkLevels(load.client, &load.concurrencies, &load.rates);
    }
}

} // namespace

int presetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("presets"),
        QStringLiteral("Lists the built-in experiments: name, then what it reproduces."));
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    for (const auto &preset : lab::SpecSource::presets())
        out << preset.name << '\t' << preset.description << '\n';
    return exitOk;
}

int importCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(QStringLiteral("import"),
                   QStringLiteral("Adds a run exported as bundle.json (servelab-cli run --out) to "
                                  "the results database, as a finished experiment."));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("bundle"), QStringLiteral("bundle.json"));
    cl.addDatabaseOptions(QStringLiteral("Results database"));
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    if (p.positionalArguments().size() != 1)
        return cl.usageError(QStringLiteral("import wants one bundle.json"), err);
    lab::ResultBundle bundle;
    QString error;
    if (!lab::ResultBundle::readFile(p.positionalArguments().first(), &bundle, &error))
        return cl.usageError(error, err);
    lab::ResultStore store;
    const QString db = cl.database();
    qint64 experiment = 0;
    if (!store.open(db, &error) ||
        !(experiment = store.beginExperiment(bundle.name + QStringLiteral(" (imported)"),
                                             bundle.spec, &error, bundle.machine))) {
        err << "servelab-cli import: " << error << '\n';
        return exitFailure;
    }
    for (const auto &point : bundle.points) {
        if (!store.addPoint(experiment, point, &error)) {
            store.finishExperiment(experiment, lab::RunStatus::Failed, &error);
            err << "servelab-cli import: " << error << '\n';
            return exitFailure;
        }
    }
    if (!store.finishExperiment(experiment, lab::RunStatus::Done, &error)) {
        err << "servelab-cli import: " << error << '\n';
        return exitFailure;
    }
    out << "imported " << bundle.points.size() << " points as experiment " << experiment << " in "
        << store.path() << '\n';
    return exitOk;
}

int runCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("run"),
        QStringLiteral("Runs an experiment: a spec file or a built-in preset (servelab-cli "
                       "presets), every target over every size, repeated; keeps it in "
                       "the results database and, with --out, writes results.csv, "
                       "runs.csv, table.tsv, samples.csv and the complete spec.json."));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("spec"), QStringLiteral("SPEC.json or a preset name"));
    p.addOptions({
        {QStringLiteral("out"), QStringLiteral("Folder for the result files."),
         QStringLiteral("dir")},
        {QStringLiteral("smoke"),
         QStringLiteral("A few seconds' version: three sizes up to 4M, 30 requests, two "
                        "repetitions.")},
        {QStringLiteral("profile"),
         QStringLiteral("Profile the server with perf at these sizes (\"all\", or 12,1M): each "
                        "such point's load runs once more with perf attached, in the last "
                        "repetition. With --out, the profiles go to DIR/profiles."),
         QStringLiteral("sizes")},
        {QStringLiteral("hosts"),
         QStringLiteral("Run across machines: the hosts file names the server host, which "
                        "serves each target, and the load hosts, which split each point's load "
                        "(servelab-cli hosts check FILE tries them first). Instead of the "
                        "spec's \"hosts\", if it has one."),
         QStringLiteral("file")},
    });
    cl.addDatabaseOptions(QStringLiteral("Results database"), CommandLine::Keeping::Optional);
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    const QStringList positional = p.positionalArguments();
    if (positional.size() != 1)
        return cl.usageError(QStringLiteral("run wants one spec file or preset name"), err);
    const QString source = positional.first();
    lab::SpecSource read;
    if (QString error; !lab::SpecSource::read(source, &read, &error))
        return cl.usageError(error, err);
    if (!read.runs()) {
        err << "servelab-cli run: " << source << " cannot run: " << read.problems.size()
            << (read.problems.size() == 1 ? " problem\n" : " problems\n");
        for (const QString &problem : read.problems)
            err << "  " << problem << '\n';
        return exitUsage;
    }
    lab::ExperimentSpec spec = read.spec;
    for (const QString &line : spec.leftOut)
        err << "run: " << line << '\n';
    if (p.isSet(QStringLiteral("smoke"))) {
        shrink(spec);
        spec.name += QStringLiteral(" (smoke)");
    }
    if (p.isSet(QStringLiteral("profile"))) {
        lab::ProfileRequest profile;
        if (QString why;
            !lab::ProfileRequest::parseList(p.value(QStringLiteral("profile")), &profile, &why))
            return cl.usageError(why, err);
        for (lab::SweepSpec &target : spec.targets)
            target.profile = profile;
    }
    const QList<lab::SweepSpec> targets = spec.expanded(); // as the runner expands them
    if (p.isSet(QStringLiteral("hosts")))
        spec.hosts = p.value(QStringLiteral("hosts"));
    std::shared_ptr<remote::HostFleet> hosts;
    if (!spec.hosts.isEmpty()) {
        QString why;
        if (!(hosts = remote::HostFleet::open(spec.hosts, targets, &why)))
            return cl.usageError(why, err);
    }
    const QString outDir = p.value(QStringLiteral("out"));
    if (!outDir.isEmpty() && (!QDir().mkpath(outDir) || !QFileInfo(outDir).isWritable()))
        return cl.usageError(
            QStringLiteral("cannot write into --out %1: choose a folder you can write").arg(outDir),
            err);

    lab::ExperimentRunner runner(spec);
    runner.setHosts(hosts);
    // The exports need every point whole; the table alone needs only totals, so a long run
    // without --out holds a few hundred bytes per point (the database has the rest).
    const bool keepWhole = !outDir.isEmpty();
    runner.setKeepResults(keepWhole);
    if (keepWhole)
        runner.setProfileFolder(QDir(outDir).absoluteFilePath(QStringLiteral("profiles")));
    QList<lab::PointResult> totals;
    QStringList lanes; // the last point's load agents
    if (const QString db = cl.database(); !db.isEmpty())
        runner.setDatabase(db);
    QObject::connect(&runner, &lab::ExperimentRunner::started, [&](qint64, int total) {
        err << "run: " << spec.name << ": " << targets.size() << " targets, "
            << targets.first().sizes.size() << " sizes, " << spec.repetitions
            << " repetitions: " << total << " points\n";
        err.flush();
    });
    QObject::connect(
        &runner, &lab::ExperimentRunner::pointFinished, [&](const lab::PointResult &point) {
            err << QStringLiteral("[%1/%2] %3, %4, repetition %5: ")
                       .arg(point.index + 1)
                       .arg(runner.totalPoints())
                       .arg(point.target, lab::formatSize(point.sizeBytes))
                       .arg(point.repetition + 1)
                << (point.dnf
                        ? QStringLiteral("DNF, ") + point.reason
                        : QString::number(point.kibPerSecond(), 'f', 2) + QStringLiteral(" KiB/s"));
            if (const QString cpu = lab::PointCost::serverCpu().text(point); !cpu.isEmpty())
                err << ", server " << cpu << " CPU µs/req";
            if (!point.verdict.isEmpty())
                err << ", " << point.verdict;
            if (point.profile.has())
                err << QStringLiteral(", profiled (%1 % slower under perf)")
                           .arg(point.profile.overheadPercent(), 0, 'f', 1);
            else if (point.profile.requested)
                err << ", " << point.profile.note;
            if (!keepWhole)
                totals.append(point.totals());
            lanes.clear(); // said under the point's line, once its estimate is out
            for (const lab::AgentLane &lane : point.agents)
                lanes << QStringLiteral("  ") + lane.summary();
        });
    QObject::connect(&runner, &lab::ExperimentRunner::progress,
                     [&](int done, int total, qint64 remainingMs) {
                         if (done < total && remainingMs >= 0)
                             err << " (about " << lab::durationText(remainingMs) << " left)";
                         err << '\n';
                         for (const QString &lane : lanes)
                             err << lane << '\n';
                         err.flush();
                     });
    {
        // Ctrl-C stops the point being measured and keeps what was measured; a second one
        // ends the process at once (the database then says interrupted).
        InterruptWatch interrupt([&runner] { runner.cancel(); });
        runner.run();
    }
    const QList<lab::PointResult> &points = keepWhole ? runner.results() : totals;
    const QJsonObject &machine = runner.machine();
    QString error;
    if (runner.status() == lab::RunStatus::Failed) {
        err << "servelab-cli run: " << runner.finishReason() << '\n';
        return exitFailure;
    }
    if (runner.status() == lab::RunStatus::Cancelled) {
        err << "run: cancelled after " << points.size() << " of " << runner.totalPoints()
            << " points; nothing written to --out";
        if (runner.experimentId())
            err << "; the points measured are kept as experiment " << runner.experimentId()
                << " in " << runner.databasePath();
        err << '\n';
        return exitFailure;
    }
    out << lab::formatSeedTable(points);
    out.flush();
    if (!outDir.isEmpty()) {
        const QDir dir(outDir);
        for (const auto &[name, text] :
             {std::pair{QStringLiteral("spec.json"), QString::fromUtf8(spec.toJson())},
              std::pair{QStringLiteral("results.csv"), lab::formatSummaryCsv(points)},
              std::pair{QStringLiteral("runs.csv"), lab::formatCsv(points)},
              std::pair{QStringLiteral("table.tsv"), lab::formatSeedTsv(points)},
              std::pair{QStringLiteral("samples.csv"), lab::formatTimelineCsv(points)},
              std::pair{QStringLiteral("latency.hlog"), lab::formatPointsHdrLog(points)},
              std::pair{
                  QStringLiteral("bundle.json"),
                  QString::fromUtf8(
                      lab::ResultBundle{spec.name, spec.toJson(), machine, points}.toJson())}}) {
            if (!lab::writeTextFile(dir.filePath(name), text, &error)) {
                err << "servelab-cli run: " << error << '\n';
                return exitFailure;
            }
        }
        QStringList charts;
        if (!ui::writeRunCharts(points, outDir, &charts, &error) ||
            !ui::writeProfiles(points, dir.filePath(QStringLiteral("profiles")), &charts, &error)) {
            err << "servelab-cli run: " << error << '\n';
            return exitFailure;
        }
        err << "run: wrote spec.json, results.csv, runs.csv, table.tsv, samples.csv, "
               "latency.hlog, bundle.json"
            << (charts.isEmpty() ? QString()
                                 : QStringLiteral(", ") + charts.join(QStringLiteral(", ")))
            << " to " << QDir(outDir).absolutePath() << '\n';
    }
    if (const auto profiled = std::find_if(points.cbegin(), points.cend(),
                                           [](const auto &p) { return p.profile.has(); });
        profiled != points.cend())
        err << "run: perf recordings in " << QFileInfo(profiled->profile.perfData).absolutePath()
            << " (perf report -i FILE, or hotspot FILE)\n";
    if (runner.experimentId())
        err << "run: kept as experiment " << runner.experimentId() << " in "
            << runner.databasePath() << '\n';
    const bool allDnf =
        std::all_of(points.begin(), points.end(), [](const auto &point) { return point.dnf; });
    return allDnf ? exitFailure : exitOk;
}

} // namespace servelab::cli
