// SPDX-License-Identifier: Apache-2.0
#include "target.h"

#include "lab/spec/transport.h"
#include "tls/selfsignedpair.h"

#include "externalserver.h"
#include "isolatedserver.h"
#include "lab/spec/servertuning.h"
#include "lab/spec/sweepspec.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QTcpSocket>
#include <QUrl>

#include <unistd.h>

namespace servelab::lab {

namespace {

// The target's transport (checked by SweepSpec::validate).
Transport transportOf(const SweepSpec &spec)
{
    Transport transport;
    QString why;
    Transport::parse(spec.transport, &transport, &why);
    return transport;
}

bool overHttps(const SweepSpec &spec)
{
    return transportOf(spec).https;
}

server::ServerOptions builtinOptions(const SweepSpec &spec, const QString &root)
{
    server::ServerOptions options;
    options.root = root.toStdString();
    options.mode = spec.mode.toStdString();
    options.threads = spec.serverThreads;
    if (overHttps(spec))
        options.tls = "self-signed"; // the client checks this certificate (SweepRunner)
    options.http2 = transportOf(spec).http2;
    return options;
}

// A built-in server in this process: its counters read directly, this process sampled.
class InProcessTarget final : public Target
{
public:
    explicit InProcessTarget(server::ServerOptions options) : m_options(std::move(options)) {}
    bool start(QString *error) override
    {
        std::string why;
        m_server = server::createServer(m_options, &why);
        if (!m_server || !m_server->start(&why)) {
            *error = QString::fromStdString(why);
            return false;
        }
        return true;
    }
    quint16 port() const override { return m_server ? m_server->port() : 0; }
    qint64 pid() const override { return getpid(); }
    std::optional<server::ServerStats> counters() override { return m_server->stats(); }
    bool tune(const QStringList &assignments, QString *error) override
    {
        return ServerTuning::tune(*m_server, assignments, error);
    }
    QStringList liveOptions() override { return ServerTuning::current(m_server->options()); }
    void stop() override
    {
        if (m_server)
            m_server->stop();
    }

private:
    server::ServerOptions m_options;
    std::unique_ptr<server::Server> m_server;
};

// A built-in server as a child `servelab-cli serve` (its own fd table and limit, more options).
class IsolatedTarget final : public Target
{
public:
    IsolatedTarget(server::ServerOptions options, const SweepSpec &spec)
        : m_options(std::move(options)), m_fdLimit(spec.fdLimit), m_arguments(spec.serverArguments)
    {}
    bool start(QString *error) override
    {
        return m_server.start(m_options, m_fdLimit, error, m_arguments);
    }
    quint16 port() const override { return m_server.port(); }
    qint64 pid() const override { return m_server.pid(); }
    std::optional<server::ServerStats> counters() override { return m_server.stats(); }
    bool tune(const QStringList &assignments, QString *error) override
    {
        return m_server.tune(assignments, error);
    }
    QStringList liveOptions() override { return m_server.liveOptions(); }
    void stop() override { m_server.stop(); }

private:
    server::ServerOptions m_options;
    int m_fdLimit;
    QStringList m_arguments;
    IsolatedServer m_server;
};

// nginx, lighttpd, ... from their templates, or a command line with {port} and {root}.
class ExternalTarget final : public Target
{
public:
    ExternalTarget(const SweepSpec &spec, const QString &root)
        : m_target(spec.target), m_root(root), m_workers(spec.serverThreads),
          m_https(overHttps(spec)), m_http2(transportOf(spec).http2)
    {}
    bool start(QString *error) override
    {
        if (m_https) { // the built-in servers' pair, which the client trusts (SweepRunner)
            std::string certificate;
            std::string key;
            std::string why;
            if (!tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                             tls::SelfSignedPair::Key::EcdsaP256, &certificate,
                                             &key, &why)) {
                *error = QStringLiteral("cannot make the self-signed certificate: %1")
                             .arg(QString::fromStdString(why));
                return false;
            }
            m_server.setTls(QString::fromStdString(certificate), QString::fromStdString(key));
        }
        m_server.setHttp2(m_http2);
        return m_server.start(m_target, m_root, m_workers, error);
    }
    quint16 port() const override { return m_server.port(); }
    qint64 pid() const override { return m_server.pid(); }
    void stop() override { m_server.stop(); }

private:
    QString m_target;
    QString m_root;
    int m_workers;
    bool m_https;
    bool m_http2;
    ExternalServer m_server;
};

// A server already running: not ServeLab's to start or stop; sampled if its pid is given.
class UrlTarget final : public Target
{
public:
    explicit UrlTarget(const SweepSpec &spec) : m_url(spec.url()), m_pid(spec.watchPid) {}
    bool start(QString *error) override
    {
        const QUrl url(m_url);
        QTcpSocket probe;
        probe.connectToHost(url.host(), quint16(url.port(80)));
        if (probe.waitForConnected(3000))
            return true;
        *error = QStringLiteral("nothing answers at %1 (%2): start that server first, or check "
                                "the URL")
                     .arg(m_url, probe.errorString());
        return false;
    }
    quint16 port() const override { return quint16(QUrl(m_url).port(80)); }
    qint64 pid() const override { return m_pid; }

private:
    QString m_url;
    qint64 m_pid;
};

} // namespace

bool Target::tune(const QStringList &, QString *error)
{
    *error = QStringLiteral("this target cannot be tuned while it runs: only ServeLab's built-in "
                            "servers take changes (a real server or a URL has its own "
                            "configuration)");
    return false;
}

std::unique_ptr<Target> Target::create(const SweepSpec &spec, const QString &root)
{
    switch (spec.kind()) {
    case TargetKind::Url: return std::make_unique<UrlTarget>(spec);
    case TargetKind::Template:
    case TargetKind::Command: return std::make_unique<ExternalTarget>(spec, root);
    case TargetKind::Builtin: break;
    }
    if (spec.runsIsolated())
        return std::make_unique<IsolatedTarget>(builtinOptions(spec, root), spec);
    return std::make_unique<InProcessTarget>(builtinOptions(spec, root));
}

} // namespace servelab::lab
