// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"
#include "serveroptionsparser.h"

#include "lab/spec/specfield.h"
#include "lab/targets/controlserver.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace servelab::cli {

namespace {
// stdio, the listening socket, an epoll set, an eventfd and a reserve fd per thread, and room to
// open a file and accept a connection: below this the server cannot serve anything.
constexpr qint64 minimumFdLimit = 16;
} // namespace

int serveCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("serve"),
        QStringLiteral("Serves a folder with a built-in server until SIGINT or SIGTERM. Its "
                       "control socket (the third line printed) takes `servelab-cli tune`."));
    auto &p = cl.parser();
    p.addOptions({
        {QStringLiteral("root"), QStringLiteral("Document root to serve."), QStringLiteral("dir")},
        {QStringLiteral("host"), QStringLiteral("Address to listen on."), QStringLiteral("address"),
         QStringLiteral("127.0.0.1")},
        {QStringLiteral("port"), QStringLiteral("Port; 0 lets the system choose."),
         QStringLiteral("port"), QStringLiteral("0")},
        {QStringLiteral("fd-limit"),
         QStringLiteral("Set RLIMIT_NOFILE of this process to n (the seeds' ulimit -n 1024); "
                        "0 keeps the current limit."),
         QStringLiteral("n"), QStringLiteral("0")},
        {QStringLiteral("control"),
         QStringLiteral("The control socket, for `servelab-cli tune` (stats, get, set "
                        "name=value while it serves); none: no channel. Default: "
                        "$XDG_RUNTIME_DIR/servelab/serve-PID.sock (/tmp/servelab-UID/ without "
                        "it)."),
         QStringLiteral("path")},
    });
    addServerOptions(cl);
    int code = exitOk;
    if (!cl.parseOptions(arguments, out, err, &code))
        return code;
    if (!p.isSet(QStringLiteral("root")))
        return cl.usageError(QStringLiteral("--root DIR is required"), err);
    server::ServerOptions options;
    qint64 port = 0;
    qint64 fdLimit = 0;
    if (!cl.number(QStringLiteral("port"), 0, 65535, &port, err) ||
        !cl.number(QStringLiteral("fd-limit"), lab::SpecFields::fdLimit.low,
                   lab::SpecFields::fdLimit.high, &fdLimit, err) ||
        !readServerOptions(cl, &options, err))
        return exitUsage;
    if (fdLimit != 0 && fdLimit < minimumFdLimit)
        return cl.usageError(
            QStringLiteral("--fd-limit %1 is too low: the server needs at least %2 "
                           "descriptors for itself")
                .arg(fdLimit)
                .arg(minimumFdLimit),
            err);
    options.root = QFileInfo(p.value(QStringLiteral("root"))).absoluteFilePath().toStdString();
    options.host = p.value(QStringLiteral("host")).toStdString();
    options.port = static_cast<std::uint16_t>(port);
    const qint64 threads = options.threads;
    std::string error;
    auto server = server::createServer(options, &error);
    if (!server)
        return cl.usageError(QString::fromStdString(error), err);
    if (fdLimit != 0) {
        // Soft and hard alike: this process is the isolated target, and must not raise it back.
        const rlimit limit{rlim_t(fdLimit), rlim_t(fdLimit)};
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
            err << "servelab-cli serve: cannot set the fd limit to " << fdLimit << ": "
                << std::strerror(errno) << '\n';
            return exitFailure;
        }
    }

    // Block the stop signals before the server threads exist, so they inherit the mask and
    // only this thread receives them, through sigwait().
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    sigset_t previous;
    pthread_sigmask(SIG_BLOCK, &stopSignals, &previous);
    if (!server->start(&error)) {
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        err << "servelab-cli serve: " << QString::fromStdString(error) << '\n';
        return exitFailure;
    }
    // The first line is the contract scripts read (design.md); the details follow on their own.
    const QString host = QString::fromStdString(options.host);
    out << "listening on " << (host.contains(u':') ? u'[' + host + u']' : host) << ':'
        << server->port() << '\n'
        << "mode " << QString::fromStdString(options.mode) << ", " << threads << " thread"
        << (threads > 1 ? "s" : "") << ", root " << QString::fromStdString(options.root)
        << ", max connections "
        << (server->maxConnections() < 0 ? QStringLiteral("unlimited")
                                         : QString::number(server->maxConnections()))
        << '\n';
    lab::ControlServer control(*server);
    const QString controlPath = p.value(QStringLiteral("control"));
    if (controlPath != u"none") {
        QString why;
        if (!control.start(controlPath.isEmpty() ? lab::ControlServer::defaultPath(getpid())
                                                 : QFileInfo(controlPath).absoluteFilePath(),
                           &why)) {
            server->stop();
            pthread_sigmask(SIG_SETMASK, &previous, nullptr);
            err << "servelab-cli serve: " << why << '\n';
            return exitFailure;
        }
        out << "control " << control.path() << '\n';
    }
    out.flush();
    int signal = 0;
    sigwait(&stopSignals, &signal);
    control.stop();
    server->stop();
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    const auto stats = server->stats();
    out << "stopped: " << stats.connectionsAccepted << " connections, " << stats.requests
        << " requests (" << stats.responses4xx << " 4xx, " << stats.responses5xx << " 5xx), "
        << stats.bytesSent << " bytes sent, " << stats.refused << " connections refused, "
        << stats.acceptEmfile << " EMFILE";
    if (stats.handoffs > 0)
        out << ", " << stats.handoffs << " hand-offs waiting "
            << QString::number(double(stats.handoffWaitMicros) / double(stats.handoffs), 'f', 1)
            << " us on average, " << stats.handoffWaitMaxMicros << " us at most";
    out << '\n';
    out.flush();
    return exitOk;
}

} // namespace servelab::cli
