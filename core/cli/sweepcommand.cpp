#include "cli.h"
#include "commandline.h"

#include "lab/resultexport.h"
#include "lab/sizelist.h"
#include "lab/sweeprunner.h"
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
         QStringLiteral(
             "What to measure: builtin (the --mode), nginx, lighttpd, apache, h2o, tomcat, or "
             "\"command:CMD\" with {port} and {root} in CMD."),
         QStringLiteral("target"), QStringLiteral("builtin")},
        {QStringLiteral("isolated"),
         QStringLiteral("Run the server as a child servelab-cli serve process.")},
        {QStringLiteral("fd-limit"),
         QStringLiteral("RLIMIT_NOFILE of the isolated server (implies --isolated; 0: inherit)."),
         QStringLiteral("n"), QStringLiteral("0")},
        {QStringLiteral("root"),
         QStringLiteral("Folder for the generated files (default: the user's cache)."),
         QStringLiteral("dir")},
        {QStringLiteral("csv"), QStringLiteral("Also write every figure to this CSV file."),
         QStringLiteral("file")},
        {QStringLiteral("tsv"), QStringLiteral("Also write the table to this tab-separated file."),
         QStringLiteral("file")},
    });
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    if (!p.positionalArguments().isEmpty())
        return cl.usageError(
            QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().first()), err);

    lab::SweepSpec spec = defaults;
    QString error;
    if (!lab::parseSizeList(p.value(QStringLiteral("sizes")), &spec.sizes, &error))
        return cl.usageError(error, err);
    qint64 threads = 1;
    qint64 requests = 1;
    qint64 concurrency = 1;
    qint64 fdLimit = 0;
    if (!cl.number(QStringLiteral("fd-limit"), 0, 1 << 20, &fdLimit, err))
        return exitUsage;
    if (!cl.number(QStringLiteral("threads"), 1, 1024, &threads, err) ||
        !cl.number(QStringLiteral("n"), 1, qint64(1) << 40, &requests, err) ||
        !cl.number(QStringLiteral("c"), 1, 100000, &concurrency, err))
        return exitUsage;
    spec.mode = p.value(QStringLiteral("mode"));
    spec.serverThreads = static_cast<int>(threads);
    spec.requests = static_cast<quint64>(requests);
    spec.concurrency = static_cast<int>(concurrency);
    spec.keepAlive = p.isSet(QStringLiteral("k"));
    spec.isolated = p.isSet(QStringLiteral("isolated"));
    spec.target = p.value(QStringLiteral("target"));
    spec.fdLimit = static_cast<int>(fdLimit);
    if (p.isSet(QStringLiteral("root")))
        spec.root = QFileInfo(p.value(QStringLiteral("root"))).absoluteFilePath();
    if (const QString problem = spec.validate(); !problem.isEmpty())
        return cl.usageError(problem, err);

    lab::SweepRunner runner(spec);
    QString failure;
    QObject::connect(&runner, &lab::SweepRunner::failed,
                     [&](const QString &reason) { failure = reason; });
    QObject::connect(&runner, &lab::SweepRunner::pointFinished, [&](const lab::PointResult &point) {
        err << QStringLiteral("[%1/%2] %3: ")
                   .arg(point.index + 1)
                   .arg(spec.sizes.size())
                   .arg(lab::formatSize(point.sizeBytes))
            << (point.dnf
                    ? QStringLiteral("DNF, ") + point.reason
                    : QString::number(point.kibPerSecond(), 'f', 2) + QStringLiteral(" KiB/s"))
            << '\n';
        err.flush();
    });
    err << "sweep: " << (spec.target == u"builtin" ? spec.mode : spec.target) << ", "
        << spec.sizes.size() << " sizes, -n " << spec.requests << " -c " << spec.concurrency
        << (spec.keepAlive ? " -k" : "")
        << (spec.isolated || spec.fdLimit ? ", isolated server" : "") << ", files in "
        << spec.resolvedRoot() << '\n';
    err.flush();
    runner.run();
    if (!failure.isEmpty()) {
        err << "servelab-cli sweep: " << failure << '\n';
        return exitFailure;
    }
    out << lab::formatSeedTable(runner.results());
    out.flush();
    for (const auto &[option, text] :
         {std::pair{QStringLiteral("csv"), lab::formatCsv(runner.results())},
          std::pair{QStringLiteral("tsv"), lab::formatSeedTsv(runner.results())}}) {
        if (p.isSet(option) && !lab::writeTextFile(p.value(option), text, &error)) {
            err << "servelab-cli sweep: " << error << '\n';
            return exitFailure;
        }
    }
    // A DNF point is a result; a sweep where nothing could be measured is a failed run.
    const auto &results = runner.results();
    const bool allDnf =
        std::all_of(results.begin(), results.end(), [](const auto &p) { return p.dnf; });
    return allDnf ? exitFailure : exitOk;
}

} // namespace servelab::cli
