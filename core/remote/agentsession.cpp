// SPDX-License-Identifier: Apache-2.0
#include "agentsession.h"

#include "agentprotocol.h"
#include "clocksync.h"
#include "serverwatch.h"
#include "sharerun.h"

#include "client/clientsample.h"
#include "client/closedclient.h"
#include "client/errorkind.h"
#include "lab/run/pointoptions.h"
#include "lab/run/pointrun.h"
#include "lab/spec/docrootgenerator.h"
#include "lab/spec/experimentspec.h"
#include "lab/targets/isolatedserver.h"
#include "server/serveroptions.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace servelab::remote {

namespace {

// What `serve` puts in its document root when it is given none: one file that hosts check
// GETs, its length known on both ends.
constexpr char checkPath[] = "/servelab-check";
constexpr int checkBytes = 4096;

} // namespace

// clang-format off
const AgentSession::Route AgentSession::routes[] = {
    {method::hello,     &AgentSession::hello,     true},
    {method::clock,     &AgentSession::clock,     false},
    {method::serve,     &AgentSession::serve,     false},
    {method::stopServe, &AgentSession::stopServe, false},
    {method::watch,     &AgentSession::watch,     false},
    {method::watchEnd,  &AgentSession::watchEnd,  false},
    {method::probe,     &AgentSession::probe,     false},
    {method::shutdown,  &AgentSession::shutdown,  true},
    {method::load,      &AgentSession::load,      false},
    {method::cancel,    &AgentSession::cancel,    false},
};
// clang-format on

AgentSession::AgentSession(int input, int output)
    : m_input(input), m_output(output), m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{}

AgentSession::~AgentSession()
{
    m_load.reset();
    m_watch.reset();
    if (m_server)
        m_server->stop();
}

int AgentSession::run()
{
    char buffer[65536];
    while (!m_shutdown) {
        pollfd fds[2] = {{m_input, POLLIN, 0}, {m_wake.get(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return 1;
        if (fds[1].revents) {
            // A load ran into its deadline: nobody stopped it, so nobody is listening.
            std::fprintf(stderr, "servelab-cli agent: the load reached its deadline unstopped; "
                                 "the coordinator is gone: exiting\n");
            m_load.reset();
            return 1;
        }
        if (!fds[0].revents)
            continue;
        const ssize_t n = ::read(m_input, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_load.reset(); // EOF: the coordinator (or its connection) is gone; so is its load
            return 0;
        }
        m_framer.feed(buffer, n);
        while (auto message = m_framer.next()) {
            const QByteArray reply = answer(*message);
            if (!reply.isEmpty() && !write(reply))
                return 1;
            if (m_shutdown)
                break;
        }
        if (!m_framer.error().isEmpty()) {
            std::fprintf(stderr, "servelab-cli agent: %s\n", qPrintable(m_framer.error()));
            return 1;
        }
    }
    return 0;
}

QByteArray AgentSession::answer(const QByteArray &request)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return errorMessage(QJsonValue::Null, rpcError::parse,
                            QStringLiteral("not JSON: %1").arg(parseError.errorString()));
    const QJsonObject object = document.object();
    const QJsonValue id = object.value(QStringLiteral("id"));
    const QString name = object.value(QStringLiteral("method")).toString();
    if (!document.isObject() || name.isEmpty())
        return errorMessage(id, rpcError::invalidRequest,
                            QStringLiteral("a request needs a \"method\""));
    for (const Route &route : routes) {
        if (name != QLatin1String(route.method))
            continue;
        if (!route.beforeHello && !m_greeted)
            return errorMessage(
                id, rpcError::invalidRequest,
                QStringLiteral("\"%1\" before \"hello\": say hello first").arg(name));
        const Reply reply =
            (this->*route.handler)(object.value(QStringLiteral("params")).toObject());
        if (id.isUndefined())
            return {}; // a notification wants no answer
        return reply.result ? resultMessage(id, *reply.result)
                            : errorMessage(id, reply.code, reply.message);
    }
    QStringList known;
    for (const AgentMethod &m : agentMethods())
        known << QLatin1String(m.name);
    return errorMessage(id, rpcError::methodNotFound,
                        QStringLiteral("no method \"%1\" (this agent knows %2)")
                            .arg(name, known.join(QStringLiteral(", "))));
}

AgentSession::Reply AgentSession::failure(int code, const QString &message)
{
    return Reply(code, message);
}

AgentSession::Reply AgentSession::hello(const QJsonObject &params)
{
    const int theirs = params.value(QStringLiteral("protocol")).toInt(-1);
    if (theirs != protocolVersion)
        return failure(rpcError::versionMismatch,
                       QStringLiteral("protocol mismatch: the coordinator speaks protocol %1 "
                                      "(%2), this agent protocol %3 (%4); install the same "
                                      "ServeLab version on both hosts")
                           .arg(theirs)
                           .arg(params.value(QStringLiteral("version"))
                                    .toString(QStringLiteral("version unknown")))
                           .arg(protocolVersion)
                           .arg(buildName()));
    m_greeted = true;
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    const auto limit = [](rlim_t value) {
        return value == RLIM_INFINITY ? QJsonValue(-1) : QJsonValue(qint64(value));
    };
    return {QJsonObject{{QStringLiteral("protocol"), protocolVersion},
                        {QStringLiteral("version"), buildName()},
                        {QStringLiteral("host"), QSysInfo::machineHostName()},
                        {QStringLiteral("kernel"), QSysInfo::kernelVersion()},
                        {QStringLiteral("cores"), int(std::thread::hardware_concurrency())},
                        {QStringLiteral("nofile_soft"), limit(files.rlim_cur)},
                        {QStringLiteral("nofile_hard"), limit(files.rlim_max)},
                        {QStringLiteral("pid"), qint64(::getpid())}}};
}

AgentSession::Reply AgentSession::clock(const QJsonObject &)
{
    return {QJsonObject{{QStringLiteral("monotonic_ns"), monotonicNanos()}}};
}

AgentSession::Reply AgentSession::serve(const QJsonObject &params)
{
    if (m_server)
        return failure(rpcError::failed,
                       QStringLiteral("a server already runs here: stop_serve first"));
    server::ServerOptions options;
    options.mode = params.value(QStringLiteral("mode"))
                       .toString(QStringLiteral("epoll+sendfile"))
                       .toStdString();
    options.host =
        params.value(QStringLiteral("address")).toString(QStringLiteral("127.0.0.1")).toStdString();
    const int port = params.value(QStringLiteral("port")).toInt(0);
    if (port < 0 || port > 65535)
        return failure(rpcError::invalidParams,
                       QStringLiteral("port %1 is out of range").arg(port));
    options.port = quint16(port);
    options.threads = params.value(QStringLiteral("threads")).toInt(options.threads);
    m_root = std::make_unique<QTemporaryDir>();
    QFile file(m_root->filePath(QLatin1String(checkPath + 1)));
    if (!m_root->isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(QByteArray(checkBytes, 'x')) != checkBytes)
        return failure(rpcError::failed, QStringLiteral("cannot write a document root in %1: %2")
                                             .arg(m_root->path(), file.errorString()));
    file.close();
    // The point's files (4K.bin, 1M.bin...), made here: nothing is copied between hosts.
    QList<quint64> sizes;
    for (const QJsonValue &size : params.value(QStringLiteral("sizes")).toArray())
        sizes << quint64(size.toInteger());
    QString why;
    lab::DocRootGenerator::Content content{};
    if (const QString name =
            params.value(QStringLiteral("content")).toString(QStringLiteral("random"));
        !lab::DocRootGenerator::parseContent(name, &content))
        return failure(rpcError::invalidParams,
                       QStringLiteral("content \"%1\" is not random or zeros").arg(name));
    const int files = std::max(1, params.value(QStringLiteral("files")).toInt(1));
    if (!sizes.isEmpty() &&
        !lab::DocRootGenerator::ensure(m_root->path(), sizes, &why, content, files))
        return failure(rpcError::failed, QStringLiteral("cannot write the files: %1").arg(why));
    options.root = m_root->path().toStdString();
    // A child process, as a target on one machine is by default: its descriptors, threads and
    // CPU are its own (not this agent's channel, sampler and counters), it takes an fd limit
    // and serve's other flags, and it dies with this agent (PDEATHSIG).
    QStringList arguments;
    for (const QJsonValue &argument : params.value(QStringLiteral("arguments")).toArray())
        arguments << argument.toString();
    auto server = std::make_unique<lab::IsolatedServer>();
    QString error;
    if (!server->start(options, params.value(QStringLiteral("fd_limit")).toInt(0), &error,
                       arguments))
        return failure(rpcError::failed, QStringLiteral("cannot serve on %1: %2")
                                             .arg(QString::fromStdString(options.host), error));
    m_server = std::move(server);
    return {QJsonObject{{QStringLiteral("port"), int(m_server->port())},
                        {QStringLiteral("path"), QLatin1String(checkPath)},
                        {QStringLiteral("bytes"), checkBytes}}};
}

AgentSession::Reply AgentSession::stopServe(const QJsonObject &)
{
    m_watch.reset();
    qint64 requests = 0;
    if (m_server) {
        if (const auto stats = m_server->stats())
            requests = qint64(stats->requests);
        m_server->stop();
    }
    m_server.reset();
    m_root.reset();
    return {QJsonObject{{QStringLiteral("requests"), requests}}};
}

AgentSession::Reply AgentSession::watch(const QJsonObject &)
{
    if (!m_server)
        return failure(rpcError::failed, QStringLiteral("no server runs here: serve first"));
    m_watch = std::make_unique<ServerWatch>(*m_server);
    QString why;
    if (!m_watch->start(&why)) {
        m_watch.reset();
        return failure(rpcError::failed, why);
    }
    return {QJsonObject{{QStringLiteral("started_ns"), monotonicNanos()}}};
}

AgentSession::Reply AgentSession::watchEnd(const QJsonObject &)
{
    if (!m_watch)
        return failure(rpcError::failed, QStringLiteral("no watch runs here: watch first"));
    const QJsonObject seen = m_watch->finish();
    m_watch.reset();
    return {seen};
}

AgentSession::Reply AgentSession::probe(const QJsonObject &params)
{
    client::ClientOptions options;
    options.host = params.value(QStringLiteral("host")).toString().toStdString();
    const int port = params.value(QStringLiteral("port")).toInt(0);
    if (options.host.empty() || port <= 0 || port > 65535)
        return failure(rpcError::invalidParams,
                       QStringLiteral("probe needs a host and a port in 1..65535"));
    options.port = quint16(port);
    options.path = params.value(QStringLiteral("path")).toString(QStringLiteral("/")).toStdString();
    if (params.contains(QStringLiteral("bytes")))
        options.expectedBodyLength = quint64(params.value(QStringLiteral("bytes")).toInteger());
    options.requests = 1;
    options.concurrency = 1;
    options.timeoutMs = params.value(QStringLiteral("timeout_ms")).toInt(5000);
    client::ClosedClient client(options);
    const client::LoadResult result = client.run();
    QJsonObject reply{{QStringLiteral("ok"), result.ok == 1},
                      {QStringLiteral("micros"), qint64(result.latency.max())}};
    if (result.ok != 1)
        reply.insert(QStringLiteral("error"),
                     QString::fromUtf8(client::errorKindText(result.dominantError())));
    return {reply};
}

AgentSession::Reply AgentSession::load(const QJsonObject &params)
{
    if (m_load && !m_load->finished())
        return failure(rpcError::failed, QStringLiteral("a load already runs here"));
    m_load.reset();
    lab::ExperimentSpec experiment;
    QStringList problems;
    if (!lab::ExperimentSpec::parse(params.value(QStringLiteral("spec")).toString().toUtf8(),
                                    QStringLiteral("share"), &experiment, &problems))
        return failure(rpcError::invalidParams,
                       QStringLiteral("the share's spec: %1").arg(problems.join(u"; ")));
    const QList<lab::SweepSpec> specs = experiment.expanded();
    if (specs.size() != 1)
        return failure(
            rpcError::invalidParams,
            QStringLiteral("a share is one target at one load, not %1").arg(specs.size()));
    const lab::SweepSpec &spec = specs.first();
    const int port = params.value(QStringLiteral("port")).toInt(0);
    if (port <= 0 || port > 65535)
        return failure(rpcError::invalidParams,
                       QStringLiteral("port %1 is out of range").arg(port));
    client::ClientOptions options =
        lab::pointOptions(spec, quint64(params.value(QStringLiteral("size")).toInteger()),
                          params.value(QStringLiteral("host")).toString(), quint16(port));
    auto samples = std::make_unique<client::SampleQueue>();
    options.samples = samples.get();
    const qint64 startAt = params.value(QStringLiteral("start_at_ns")).toInteger();
    const qint64 deadline = params.value(QStringLiteral("deadline_ns")).toInteger();
    const qint64 now = monotonicNanos();
    // Too late to start with the others: the point cannot be one load, and is not run.
    if (now > startAt)
        return failure(rpcError::failed,
                       QStringLiteral("late: the start time passed %1 ms ago on this host")
                           .arg(double(now - startAt) / 1e6, 0, 'f', 1));
    if (deadline <= startAt)
        return failure(rpcError::invalidParams, QStringLiteral("the deadline is before the start"));
    m_load = std::make_unique<ShareRun>(
        lab::PointRun::of(spec.model).client(spec, options), std::move(samples), startAt, deadline,
        [this](const char *name, const QJsonObject &notice) {
            write(notificationMessage(name, notice));
            if (notice.value(QStringLiteral("stopped_at_deadline")).toBool()) {
                const std::uint64_t one = 1;
                [[maybe_unused]] const auto n = ::write(m_wake.get(), &one, sizeof one);
            }
        });
    return {QJsonObject{{QStringLiteral("accepted"), true}, {QStringLiteral("now_ns"), now}}};
}

AgentSession::Reply AgentSession::cancel(const QJsonObject &)
{
    if (m_load)
        m_load->cancel();
    return {QJsonObject{}};
}

AgentSession::Reply AgentSession::shutdown(const QJsonObject &)
{
    m_shutdown = true;
    return {QJsonObject{}};
}

bool AgentSession::write(const QByteArray &json)
{
    const QByteArray framed = MessageFramer::frame(json);
    std::lock_guard lock(m_writing);
    qsizetype written = 0;
    while (written < framed.size()) {
        const ssize_t n =
            ::write(m_output, framed.constData() + written, size_t(framed.size() - written));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            std::fprintf(stderr, "servelab-cli agent: cannot answer: %s\n", std::strerror(errno));
            return false;
        }
        written += n;
    }
    return true;
}

} // namespace servelab::remote
