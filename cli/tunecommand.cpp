// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "lab/spec/servertuning.h"
#include "lab/targets/controlclient.h"
#include "lab/targets/controlserver.h"

#include <QFileInfo>
#include <QTextStream>

namespace servelab::cli {

namespace {
constexpr int answerTimeoutMs = 5000;
} // namespace

// servelab-cli tune: changes a running `serve` while it serves (seed 003's JMX tuning), over
// its control socket; without changes, prints what may change and its value now.
int tuneCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("tune"),
        QStringLiteral("Changes a running `servelab-cli serve` while it serves: its pool's "
                       "threads, max-downloads,\nchunk, buffer, timeouts, max-connections, the "
                       "open-file cache's size, ... All at once or\nnone; an option that cannot "
                       "change live is refused with the reason. Without NAME=VALUE, prints\nthe "
                       "options that can change, as they are now. Prints the server's answer."));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("changes"),
                            QStringLiteral("NAME=VALUE, as threads=8 (serve --help's names)."),
                            QStringLiteral("[NAME=VALUE...]"));
    p.addOptions({
        {QStringLiteral("control"),
         QStringLiteral("The server's control socket (the third line `serve` printed)."),
         QStringLiteral("path")},
        {QStringLiteral("pid"),
         QStringLiteral("The server's process id: its socket at the default place "
                        "($XDG_RUNTIME_DIR/servelab, or /tmp/servelab-UID without one)."),
         QStringLiteral("pid")},
        {QStringLiteral("stats"), QStringLiteral("Print the server's counters instead.")},
    });
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    const bool byPath = p.isSet(QStringLiteral("control"));
    if (byPath == p.isSet(QStringLiteral("pid")))
        return cl.usageError(QStringLiteral("give the server as --control PATH or --pid PID"), err);
    // Absolute, as `serve` makes it: QLocalSocket takes a relative name for an abstract one.
    QString path = QFileInfo(p.value(QStringLiteral("control"))).absoluteFilePath();
    if (!byPath) {
        qint64 pid = 0;
        if (!cl.number(QStringLiteral("pid"), 1, (1LL << 31) - 1, &pid, err))
            return exitUsage;
        if (!QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid))) {
            err << "servelab-cli tune: no process " << pid << " is running\n";
            return exitFailure;
        }
        path = lab::ControlServer::defaultPath(pid);
    }
    const QStringList changes = p.positionalArguments();
    if (p.isSet(QStringLiteral("stats")) && !changes.isEmpty())
        return cl.usageError(QStringLiteral("--stats takes no NAME=VALUE"), err);
    if (QString why; !changes.isEmpty() && !lab::ServerTuning::check(changes, &why))
        return cl.usageError(why, err);
    const QByteArray request = p.isSet(QStringLiteral("stats")) ? QByteArrayLiteral("stats")
                               : changes.isEmpty()              ? QByteArrayLiteral("get")
                                                   : "set " + changes.join(u' ').toUtf8();
    QString error;
    const auto reply = lab::ControlClient::ask(path, request, answerTimeoutMs, &error);
    if (!reply) {
        err << "servelab-cli tune: " << error << '\n';
        return exitFailure;
    }
    if (reply->startsWith("error ")) {
        err << "servelab-cli tune: " << QString::fromUtf8(reply->mid(6)) << '\n';
        return exitFailure;
    }
    out << QString::fromUtf8(*reply) << '\n';
    return exitOk;
}

} // namespace servelab::cli
