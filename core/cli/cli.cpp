// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "lab/buildinfo.h"

#include "servelab_config.h"
#include "server/servermode.h"

#include <QTextStream>

namespace servelab::cli {

namespace {

void printUsage(QTextStream &out)
{
    out << "Usage: servelab-cli COMMAND [options]\n\n"
           "ServeLab measures how fast static files are served, and why.\n\n"
           "Commands:\n"
           "  serve   run a built-in server:     serve --mode epoll+sendfile --root DIR [--port "
           "0]\n"
           "  load    load a URL as ab does:     load URL [-n N] [-c N] [-k] [--json]\n"
           "  sweep   KiB/s for each file size:  sweep [--sizes 4K..32M] [-c 1] [-n 200]\n"
           "  run     an experiment:             run SPEC.json|PRESET [--out DIR] [--smoke]\n"
           "  presets the built-in experiments, one per line\n"
           "  import  a run's bundle.json into the results database\n"
           "  watch   a process's fd timeline:   watch PID [-d SECONDS]\n"
           "  modes   the server modes that run here, one per line (the rest, and why: stderr)\n\n"
           "'servelab-cli COMMAND --help' tells more. Exit status: 0 done, 1 the run failed,\n"
           "2 bad arguments.\n";
    out.flush();
}

} // namespace

int run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    const QString command = arguments.value(1);
    QStringList rest = arguments.mid(2);
    rest.prepend(QStringLiteral("servelab-cli"));
    if (command == u"serve")
        return serveCommand(rest, out, err);
    if (command == u"load")
        return loadCommand(rest, out, err);
    if (command == u"sweep")
        return sweepCommand(rest, out, err);
    if (command == u"watch")
        return watchCommand(rest, out, err);
    if (command == u"run")
        return runCommand(rest, out, err);
    if (command == u"presets")
        return presetsCommand(rest, out, err);
    if (command == u"import")
        return importCommand(rest, out, err);
    if (command == u"modes") {
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
    if (command == u"--help" || command == u"-h" || command == u"help") {
        printUsage(out);
        return exitOk;
    }
    if (command == u"--version") {
        out << lab::BuildInfo::current().text(QStringLiteral("servelab-cli"));
        return exitOk;
    }
    if (command.isEmpty())
        err << "servelab-cli: no command given: use serve, load, sweep, run or watch (see "
               "servelab-cli "
               "--help)\n";
    else
        err << "servelab-cli: unknown command '" << command
            << "': use serve, load, sweep, run or watch (see servelab-cli --help)\n";
    err.flush();
    return exitUsage;
}

} // namespace servelab::cli
