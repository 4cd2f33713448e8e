// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "lab/results/buildinfo.h"

#include "servelab_config.h"
#include "server/servermode.h"

#include <QTextStream>

namespace servelab::cli {

namespace {

int modesCommand(const QStringList &, QTextStream &out, QTextStream &err)
{
    for (const auto &mode : server::availableModes())
        out << QString::fromStdString(mode.name()) << '\n';
    out.flush();
    // Scripts read the names on stdout; people also learn what is missing here, and why.
    for (const auto &[mode, reason] : server::unavailableModes())
        err << "servelab-cli: " << QString::fromStdString(mode.name())
            << " unavailable: " << QString::fromStdString(reason) << '\n';
    err.flush();
    return exitOk;
}

// The commands: dispatch, the usage and the error for an unknown one all read this table; a
// new command is its function (its own file) and a row.
struct Command
{
    const char *name;
    int (*run)(const QStringList &arguments, QTextStream &out, QTextStream &err);
    const char *summary; // in the usage
};

// clang-format off
const Command commands[] = {
    {"serve",   serveCommand,   "run a built-in server:     serve --mode epoll+sendfile --root DIR [--port 0]"},
    {"load",    loadCommand,    "load a URL as ab does:     load URL [-n N] [-c N] [-k] [--json]"},
    {"sweep",   sweepCommand,   "KiB/s for each file size:  sweep [--sizes 4K..32M] [-c 1] [-n 200]"},
    {"run",     runCommand,     "an experiment:             run SPEC.json|PRESET [--out DIR] [--smoke]"},
    {"presets", presetsCommand, "the built-in experiments, one per line"},
    {"compare", compareCommand, "a run against a baseline:  compare BASELINE CANDIDATE [--fail-if-slower 5%] [--junit F]"},
    {"import",  importCommand,  "a run's bundle.json into the results database"},
    {"watch",   watchCommand,   "a process's fd timeline:   watch PID [-d SECONDS]"},
    {"tune",    tuneCommand,    "change a running serve:    tune --pid PID threads=8 [NAME=VALUE...]"},
    {"hosts",   hostsCommand,   "check a distributed run's hosts: hosts check HOSTS.json"},
    {"agent",   agentCommand,   "one agent of a distributed run (ssh starts it): agent --stdio"},
    {"k8s-job", k8sJobCommand,  "agents as Kubernetes pods: k8s-job --agents N --image IMG --out DIR"},
    {"modes",   modesCommand,   "the server modes that run here, one per line (the rest, and why: stderr)"},
};
// clang-format on

// "serve, load, ... or modes".
QString commandNames()
{
    QStringList names;
    for (const auto &c : commands)
        names << QString::fromLatin1(c.name);
    const QString last = names.takeLast();
    return names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

void printUsage(QTextStream &out)
{
    out << "Usage: servelab-cli COMMAND [options]\n\n"
           "ServeLab measures how fast static files are served, and why.\n\n"
           "Commands:\n";
    for (const auto &c : commands)
        out << QStringLiteral("  %1 %2\n")
                   .arg(QLatin1String(c.name), -7)
                   .arg(QLatin1String(c.summary));
    out << "\n'servelab-cli COMMAND --help' tells more. Exit status: 0 done, 1 the run failed,\n"
           "2 bad arguments.\n";
    out.flush();
}

} // namespace

int run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const QString command = arguments.value(1);
    QStringList rest = arguments.mid(2);
    rest.prepend(QStringLiteral("servelab-cli"));
    for (const auto &c : commands)
        if (command == QLatin1String(c.name))
            return c.run(rest, out, err);
    if (command == u"--help" || command == u"-h" || command == u"help") {
        printUsage(out);
        return exitOk;
    }
    if (command == u"--version") {
        out << lab::BuildInfo::current().text(QStringLiteral("servelab-cli"));
        return exitOk;
    }
    if (command.isEmpty())
        err << "servelab-cli: no command given: use " << commandNames()
            << " (see servelab-cli --help)\n";
    else
        err << "servelab-cli: unknown command '" << command << "': use " << commandNames()
            << " (see servelab-cli --help)\n";
    err.flush();
    return exitUsage;
}

} // namespace servelab::cli
