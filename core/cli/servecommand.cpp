#include "cli.h"
#include "commandline.h"

#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

#include <QFileInfo>
#include <QTextStream>

#include <csignal>
#include <pthread.h>

namespace servelab::cli {

int serveCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("serve"),
        QStringLiteral("Serves a folder with a built-in server until SIGINT or SIGTERM."));
    auto &p = cl.parser();
    p.addOptions({
        {QStringLiteral("mode"),
         QStringLiteral("Server mode (available: %1).")
             .arg(QString::fromStdString(server::availableModeList())),
         QStringLiteral("mode"), QStringLiteral("epoll+sendfile")},
        {QStringLiteral("root"), QStringLiteral("Document root to serve."), QStringLiteral("dir")},
        {QStringLiteral("host"), QStringLiteral("Address to listen on."), QStringLiteral("address"),
         QStringLiteral("127.0.0.1")},
        {QStringLiteral("port"), QStringLiteral("Port; 0 lets the system choose."),
         QStringLiteral("port"), QStringLiteral("0")},
        {QStringLiteral("threads"), QStringLiteral("Event-loop threads."), QStringLiteral("n"),
         QStringLiteral("1")},
    });
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    if (!p.positionalArguments().isEmpty())
        return cl.usageError(
            QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().first()), err);
    if (!p.isSet(QStringLiteral("root")))
        return cl.usageError(QStringLiteral("--root DIR is required"), err);
    qint64 port = 0;
    qint64 threads = 1;
    if (!cl.number(QStringLiteral("port"), 0, 65535, &port, err) ||
        !cl.number(QStringLiteral("threads"), 1, 1024, &threads, err))
        return exitUsage;

    server::ServerOptions options;
    options.root = QFileInfo(p.value(QStringLiteral("root"))).absoluteFilePath().toStdString();
    options.mode = p.value(QStringLiteral("mode")).toStdString();
    options.host = p.value(QStringLiteral("host")).toStdString();
    options.port = static_cast<std::uint16_t>(port);
    options.threads = static_cast<int>(threads);
    std::string error;
    auto server = server::createServer(options, &error);
    if (!server)
        return cl.usageError(QString::fromStdString(error), err);

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
        << (threads > 1 ? "s" : "") << ", root " << QString::fromStdString(options.root) << '\n';
    out.flush();
    int signal = 0;
    sigwait(&stopSignals, &signal);
    server->stop();
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    const auto stats = server->stats();
    out << "stopped: " << stats.connectionsAccepted << " connections, " << stats.requests
        << " requests (" << stats.responses4xx << " 4xx, " << stats.responses5xx << " 5xx), "
        << stats.bytesSent << " bytes sent\n";
    out.flush();
    return exitOk;
}

} // namespace servelab::cli
