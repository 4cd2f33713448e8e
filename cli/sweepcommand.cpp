// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "interruptwatch.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "lab/results/runstatus.h"
#include "lab/run/experimentrunner.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/servertemplate.h"
#include "lab/spec/sizelist.h"
#include "lab/spec/specfield.h"
#include "server/servermode.h"

#include <QFileInfo>
#include <QTextStream>

#include <algorithm>

namespace servelab::cli {

int sweepCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const auto defaults = lab::SweepSpec::defaults();
    CommandLine cl(QStringLiteral("sweep"),
                   QStringLiteral("Serves generated files of each size with a built-in server and "
                                  "loads each as ab would;\nprints KiB/s per file size."));
    auto &p = cl.parser();
    p.addOptions({
        {QStringLiteral("sizes"), QStringLiteral("File sizes: 4K,64K,1M or 4K..32M (doubling)."),
         QStringLiteral("list"), lab::formatSizeList(defaults.sizes)},
        {QStringLiteral("mode"),
         QStringLiteral("Server mode (available: %1).")
             .arg(QString::fromStdString(server::availableModeList())),
         QStringLiteral("mode"), defaults.mode},
        {QStringLiteral("threads"), QStringLiteral("Server threads."), QStringLiteral("n"),
         QString::number(defaults.serverThreads)},
        {QStringLiteral("n"), QStringLiteral("Requests per file size (ab -n)."),
         QStringLiteral("requests"), QString::number(defaults.requests)},
        {QStringLiteral("c"), QStringLiteral("Concurrency (ab -c)."), QStringLiteral("concurrency"),
         QString::number(defaults.concurrency)},
        {QStringLiteral("k"), QStringLiteral("Keep connections alive (ab -k).")},
        {QStringLiteral("target"),
         QStringLiteral("What to measure: builtin (the --mode), %1, or \"command:CMD\" with "
                        "{port} and {root} in CMD.")
             .arg(lab::ServerTemplate::names().join(QStringLiteral(", "))),
         QStringLiteral("target"), QStringLiteral("builtin")},
        {QStringLiteral("isolated"),
         QStringLiteral("Run the server as a child servelab-cli serve process (the default).")},
        {QStringLiteral("in-process"),
         QStringLiteral("Run the server in this process instead: its descriptor figures then "
                        "include the load client's and ServeLab's own.")},
        {QStringLiteral("fd-limit"),
         QStringLiteral("RLIMIT_NOFILE of the isolated server (0: inherit)."), QStringLiteral("n"),
         QStringLiteral("0")},
        {QStringLiteral("root"),
         QStringLiteral("Folder for the generated files (default: the user's cache)."),
         QStringLiteral("dir")},
        {QStringLiteral("csv"), QStringLiteral("Also write every figure to this CSV file."),
         QStringLiteral("file")},
        {QStringLiteral("tsv"), QStringLiteral("Also write the table to this tab-separated file."),
         QStringLiteral("file")},
        {QStringLiteral("samples"),
         QStringLiteral("Also write the timelines (client and server process every 100 ms: "
                        "fds by type, threads, RSS, CPU) to this CSV file."),
         QStringLiteral("file")},
    });
    cl.addDatabaseOptions(QStringLiteral("Results database to add the run to"),
                          CommandLine::Keeping::Optional);
    int code = exitOk;
    if (!cl.parseOptions(arguments, out, err, &code))
        return code;

    lab::SweepSpec spec = defaults;
    QString error;
    if (!lab::parseSizeList(p.value(QStringLiteral("sizes")), &spec.sizes, &error))
        return cl.usageError(error, err);
    qint64 threads = 1;
    qint64 requests = 1;
    qint64 concurrency = 1;
    qint64 fdLimit = 0;
    namespace F = lab::SpecFields;
    if (!cl.number(QStringLiteral("fd-limit"), F::fdLimit.low, F::fdLimit.high, &fdLimit, err) ||
        !cl.number(F::serverThreads, &threads, err) || !cl.number(F::requests, &requests, err) ||
        !cl.number(F::concurrency, &concurrency, err))
        return exitUsage;
    spec.mode = p.value(QStringLiteral("mode"));
    spec.serverThreads = static_cast<int>(threads);
    spec.requests = static_cast<quint64>(requests);
    spec.concurrency = static_cast<int>(concurrency);
    spec.keepAlive = p.isSet(QStringLiteral("k"));
    if (p.isSet(QStringLiteral("isolated")) && p.isSet(QStringLiteral("in-process")))
        return cl.usageError(QStringLiteral("--isolated and --in-process: choose one"), err);
    spec.isolated = !p.isSet(QStringLiteral("in-process"));
    spec.target = p.value(QStringLiteral("target"));
    spec.fdLimit = static_cast<int>(fdLimit);
    if (p.isSet(QStringLiteral("root")))
        spec.root = QFileInfo(p.value(QStringLiteral("root"))).absoluteFilePath();
    if (const QString problem = spec.validate(); !problem.isEmpty())
        return cl.usageError(problem, err);

    // The same path as `run`: one target, once; the database is opened before anything runs,
    // so a refused one stops the sweep at once.
    const QString what = spec.kind() == lab::TargetKind::Builtin ? spec.mode : spec.target;
    lab::ExperimentSpec experiment;
    experiment.name = QStringLiteral("sweep %1 %2").arg(what, lab::formatSizeList(spec.sizes));
    experiment.targets = {spec};
    lab::ExperimentRunner runner(experiment);
    if (const QString db = cl.database(); !db.isEmpty())
        runner.setDatabase(db);
    QObject::connect(&runner, &lab::ExperimentRunner::started, [&] {
        err << "sweep: " << what << ", " << spec.sizes.size() << " sizes, -n " << spec.requests
            << " -c " << spec.concurrency << (spec.keepAlive ? " -k" : "")
            << (spec.isolated || spec.fdLimit ? ", isolated server" : "") << ", files in "
            << spec.resolvedRoot() << '\n';
        err.flush();
    });
    QObject::connect(
        &runner, &lab::ExperimentRunner::pointFinished, [&](const lab::PointResult &point) {
            err << QStringLiteral("[%1/%2] %3: ")
                       .arg(point.index + 1)
                       .arg(spec.sizes.size())
                       .arg(lab::formatSize(point.sizeBytes))
                << (point.dnf
                        ? QStringLiteral("DNF, ") + point.reason
                        : QString::number(point.kibPerSecond(), 'f', 2) + QStringLiteral(" KiB/s"))
                << '\n';
            for (const QString &fd : point.fdsLeftOpen)
                err << "    left open: " << fd << '\n';
            err.flush();
        });
    {
        // Ctrl-C stops the point being measured and keeps what was measured (as `run`).
        InterruptWatch interrupt([&runner] { runner.cancel(); });
        runner.run();
    }
    if (runner.status() == lab::RunStatus::Failed) {
        err << "servelab-cli sweep: " << runner.finishReason() << '\n';
        return exitFailure;
    }
    if (runner.experimentId())
        err << "sweep: kept as experiment " << runner.experimentId() << " in "
            << runner.databasePath() << '\n';
    if (runner.status() == lab::RunStatus::Cancelled) {
        err << "sweep: cancelled after " << runner.results().size() << " of " << spec.sizes.size()
            << " sizes\n";
        return exitFailure;
    }
    out << lab::formatSeedTable(runner.results());
    out.flush();
    for (const auto &[option, text] :
         {std::pair{QStringLiteral("csv"), lab::formatCsv(runner.results())},
          std::pair{QStringLiteral("tsv"), lab::formatSeedTsv(runner.results())},
          std::pair{QStringLiteral("samples"), lab::formatTimelineCsv(runner.results())}}) {
        if (p.isSet(option) && !lab::writeTextFile(p.value(option), text, &error)) {
            err << "servelab-cli sweep: " << error << '\n';
            return exitFailure;
        }
    }
    // A DNF point is a result; a sweep where nothing could be measured is a failed run, and
    // when one reason stopped every size (a server that cannot start), it is said once more.
    const auto &results = runner.results();
    const bool allDnf =
        std::all_of(results.begin(), results.end(), [](const auto &p) { return p.dnf; });
    if (allDnf && !results.isEmpty() &&
        std::all_of(results.begin(), results.end(),
                    [&](const auto &p) { return p.reason == results.first().reason; }))
        err << "servelab-cli sweep: " << results.first().reason << '\n';
    return allDnf ? exitFailure : exitOk;
}

} // namespace servelab::cli
