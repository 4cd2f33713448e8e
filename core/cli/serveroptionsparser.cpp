// SPDX-License-Identifier: Apache-2.0
#include "serveroptionsparser.h"

#include "commandline.h"

#include "lab/sizelist.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

namespace servelab::cli {

namespace {
QString sizeText(std::uint64_t bytes)
{
    return lab::formatSize(bytes);
}
QString msText(int ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1s").arg(ms / 1000) : QStringLiteral("%1ms").arg(ms);
}
} // namespace

void addServerOptions(CommandLine &commandLine)
{
    const server::ServerOptions d;
    const auto option = [](const char *name, const QString &description, const char *value,
                           const QString &defaultValue) {
        return QCommandLineOption(QString::fromLatin1(name),
                                  description + QStringLiteral(" Default: %1.").arg(defaultValue),
                                  QString::fromLatin1(value), defaultValue);
    };
    commandLine.parser().addOptions({
        option("mode",
               QStringLiteral("Server mode, model+transfer (available: %1).")
                   .arg(QString::fromStdString(server::availableModeList())),
               "mode", QString::fromStdString(d.mode)),
        option("threads", QStringLiteral("Event-loop threads."), "n", QString::number(d.threads)),
        option("backlog", QStringLiteral("Listen backlog."), "n", QString::number(d.backlog)),
        option("buffer", QStringLiteral("Buffer of the copy transfer (the seeds also use 81000)."),
               "size", sizeText(d.bufferSize)),
        option("sendfile-threshold",
               QStringLiteral("Below this size head and body go out in one writev (Tomcat: 48K)."),
               "size", sizeText(d.sendfileThreshold)),
        option(
            "chunk",
            QStringLiteral("Most bytes one connection sends per turn (nginx sendfile_max_chunk)."),
            "size", sizeText(d.sendfileChunk)),
        option("nodelay", QStringLiteral("TCP_NODELAY on accepted sockets."), "on|off",
               QStringLiteral("on")),
        option("coalesce",
               QStringLiteral("Head and body in one segment (MSG_MORE); off with --nodelay off "
                              "shows the 40 ms Nagle stall."),
               "on|off", QStringLiteral("on")),
        option("nopush",
               QStringLiteral("sendfile: TCP_CORK from the head to the body's end, so a large "
                              "body leaves in full segments (nginx tcp_nopush)."),
               "on|off", QStringLiteral("off")),
        option("defer-accept",
               QStringLiteral("TCP_DEFER_ACCEPT: accept a connection once its request has come "
                              "(nginx listen ... deferred)."),
               "on|off", QStringLiteral("off")),
        option("keepalive-timeout", QStringLiteral("Idle time allowed between requests."), "time",
               msText(d.keepAliveTimeoutMs)),
        option("header-timeout",
               QStringLiteral("Time for a whole request head, from its first byte (slowloris)."),
               "time", msText(d.headerTimeoutMs)),
        option("send-timeout", QStringLiteral("Time a response may make no progress."), "time",
               msText(d.sendTimeoutMs)),
        option("max-requests",
               QStringLiteral("Requests per connection before it is closed; 0: no limit."), "n",
               QString::number(d.maxRequestsPerConnection)),
        option("max-body", QStringLiteral("Largest request body accepted (then 413)."), "size",
               sizeText(d.maxBodyBytes)),
        option(
            "max-connections",
            QStringLiteral("Open connections allowed; beyond, new ones are closed at once. auto: "
                           "half the free fds (each may also hold a file); unlimited: let "
                           "accept() hit EMFILE."),
            "n|auto|unlimited", QStringLiteral("auto")),
        option(
            "accept-strategy",
            QStringLiteral("On EMFILE: reserve-fd (accept-and-close with a spare fd, pause), "
                           "backoff (pause 100 ms) or none (retry at once, as the seed's flood)."),
            "strategy", QStringLiteral("reserve-fd")),
        option("max-downloads",
               QStringLiteral("multiplex: downloads written at once; the rest wait in a queue "
                              "(grizzly-sendfile --concur-download-max)."),
               "n", QString::number(d.maxDownloads)),
        option("handoff",
               QStringLiteral("poller: the queue from the watcher to the pool: mutex (a deque and "
                              "a condition variable) or lockfree (moodycamel's queue)."),
               "queue", QStringLiteral("mutex")),
        option("open-file-cache",
               QStringLiteral("Files kept open (nginx open_file_cache): per thread for epoll "
                              "and uring, per server for the others; 0: open each request's "
                              "file anew."),
               "entries", QString::number(d.openFileCacheEntries)),
        option("open-file-valid", QStringLiteral("How long a cached file is trusted."), "time",
               msText(d.openFileCacheValidMs)),
    });
}

bool readServerOptions(CommandLine &cl, server::ServerOptions *o, QTextStream &err)
{
    const auto &p = cl.parser();
    qint64 threads = 0;
    qint64 backlog = 0;
    qint64 maxRequests = 0;
    qint64 cacheEntries = 0;
    qint64 maxDownloads = 0;
    quint64 buffer = 0;
    quint64 threshold = 0;
    quint64 chunk = 0;
    quint64 maxBody = 0;
    if (!cl.number(QStringLiteral("threads"), 1, 1024, &threads, err) ||
        !cl.number(QStringLiteral("backlog"), 1, 65535, &backlog, err) ||
        !cl.number(QStringLiteral("max-requests"), 0, 1'000'000'000, &maxRequests, err) ||
        !cl.number(QStringLiteral("open-file-cache"), 0, 1'000'000, &cacheEntries, err) ||
        !cl.number(QStringLiteral("max-downloads"), 1, 1'000'000, &maxDownloads, err) ||
        !cl.duration(QStringLiteral("open-file-valid"), 3'600'000, &o->openFileCacheValidMs, err) ||
        !cl.size(QStringLiteral("buffer"), 512, 64 << 20, &buffer, err) ||
        !cl.size(QStringLiteral("sendfile-threshold"), 1, 64 << 20, &threshold, err) ||
        !cl.size(QStringLiteral("chunk"), 4096, quint64(1) << 31, &chunk, err) ||
        !cl.size(QStringLiteral("max-body"), 1, quint64(1) << 40, &maxBody, err) ||
        !cl.onOff(QStringLiteral("nodelay"), &o->tcpNoDelay, err) ||
        !cl.onOff(QStringLiteral("coalesce"), &o->coalesceHeader, err) ||
        !cl.onOff(QStringLiteral("nopush"), &o->tcpNoPush, err) ||
        !cl.onOff(QStringLiteral("defer-accept"), &o->deferAccept, err) ||
        !cl.duration(QStringLiteral("keepalive-timeout"), 3'600'000, &o->keepAliveTimeoutMs, err) ||
        !cl.duration(QStringLiteral("header-timeout"), 3'600'000, &o->headerTimeoutMs, err) ||
        !cl.duration(QStringLiteral("send-timeout"), 3'600'000, &o->sendTimeoutMs, err))
        return false;
    const QString connections = p.value(QStringLiteral("max-connections"));
    if (connections == u"auto") {
        o->maxConnections = 0;
    } else if (connections == u"unlimited") {
        o->maxConnections = -1;
    } else {
        qint64 max = 0;
        if (!cl.number(QStringLiteral("max-connections"), 1, 10'000'000, &max, err))
            return false;
        o->maxConnections = static_cast<int>(max);
    }
    const QString strategy = p.value(QStringLiteral("accept-strategy"));
    if (strategy == u"reserve-fd")
        o->acceptStrategy = server::AcceptStrategy::ReserveFd;
    else if (strategy == u"backoff")
        o->acceptStrategy = server::AcceptStrategy::Backoff;
    else if (strategy == u"none")
        o->acceptStrategy = server::AcceptStrategy::None;
    else {
        cl.usageError(
            QStringLiteral("--accept-strategy wants reserve-fd, backoff or none, not '%1'")
                .arg(strategy),
            err);
        return false;
    }
    const QString handoff = p.value(QStringLiteral("handoff"));
    if (handoff != u"mutex" && handoff != u"lockfree") {
        cl.usageError(QStringLiteral("--handoff wants mutex or lockfree, not '%1'").arg(handoff),
                      err);
        return false;
    }
    o->handoff = handoff == u"mutex" ? server::Handoff::Mutex : server::Handoff::LockFree;
    if (o->handoff == server::Handoff::LockFree &&
        !p.value(QStringLiteral("mode")).startsWith(QStringLiteral("poller"))) {
        cl.usageError(QStringLiteral("--handoff lockfree applies to the poller model, not '%1'")
                          .arg(p.value(QStringLiteral("mode"))),
                      err);
        return false;
    }
    o->mode = p.value(QStringLiteral("mode")).toStdString();
    o->threads = static_cast<int>(threads);
    o->backlog = static_cast<int>(backlog);
    o->maxRequestsPerConnection = static_cast<int>(maxRequests);
    o->openFileCacheEntries = static_cast<int>(cacheEntries);
    o->maxDownloads = static_cast<int>(maxDownloads);
    o->bufferSize = static_cast<std::size_t>(buffer);
    o->sendfileThreshold = static_cast<std::size_t>(threshold);
    o->sendfileChunk = static_cast<std::size_t>(chunk);
    o->maxBodyBytes = maxBody;
    return true;
}

} // namespace servelab::cli
