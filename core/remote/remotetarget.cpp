// SPDX-License-Identifier: Apache-2.0
#include "remotetarget.h"

#include "agentchannel.h"
#include "agentprotocol.h"

#include "lab/spec/transport.h"

#include <QJsonArray>

namespace servelab::remote {

namespace {

// Writing the files of the largest sizes can take a while on a slow disk.
constexpr int serveTimeoutMs = 120000;
constexpr int stopTimeoutMs = 10000;

} // namespace

RemoteTarget::RemoteTarget(AgentChannel &server, QString address, const lab::SweepSpec &spec)
    : m_server(server), m_address(std::move(address)), m_spec(spec)
{}

RemoteTarget::~RemoteTarget()
{
    stop();
}

QString RemoteTarget::unsupported(const lab::SweepSpec &spec)
{
    if (spec.kind() != lab::TargetKind::Builtin)
        return QStringLiteral("%1 is not a built-in mode: only built-in servers run on a server "
                              "host yet (run real servers from one machine)")
            .arg(spec.label());
    if (!spec.tune.isEmpty())
        return QStringLiteral("%1: live tuning does not reach a server host yet").arg(spec.label());
    lab::Transport transport;
    QString why;
    if (lab::Transport::parse(spec.transport, &transport, &why) &&
        (transport.https || transport.http2))
        return QStringLiteral("%1: %2 is not split among load agents yet")
            .arg(spec.label(), transport.http2 ? transport.protocol() : QStringLiteral("https"));
    return {};
}

bool RemoteTarget::start(QString *error)
{
    if (const QString why = unsupported(m_spec); !why.isEmpty()) {
        *error = why;
        return false;
    }
    QJsonArray sizes;
    for (quint64 size : m_spec.sizes)
        sizes.append(qint64(size));
    const auto served = m_server.call(
        method::serve,
        {{QStringLiteral("mode"), m_spec.mode},
         {QStringLiteral("address"), m_address},
         {QStringLiteral("port"), 0},
         {QStringLiteral("sizes"), sizes},
         {QStringLiteral("threads"), m_spec.serverThreads},
         {QStringLiteral("content"), m_spec.content},
         {QStringLiteral("files"), m_spec.filesPerSize},
         {QStringLiteral("fd_limit"), m_spec.fdLimit},
         {QStringLiteral("arguments"), QJsonArray::fromStringList(m_spec.serverArguments)}},
        serveTimeoutMs, error);
    if (!served) {
        // Its answer may be what was lost (a timeout while the files were written): a server
        // started anyway must not stay, nor refuse the next target's serve.
        QString ignored;
        m_server.call(method::stopServe, {}, stopTimeoutMs, &ignored);
        return false;
    }
    m_port = quint16(served->value(QStringLiteral("port")).toInt());
    m_serving = true;
    return true;
}

bool RemoteTarget::tune(const QStringList &, QString *error)
{
    *error = QStringLiteral("live tuning does not reach a server host yet");
    return false;
}

void RemoteTarget::stop()
{
    if (!m_serving)
        return;
    m_serving = false;
    QString ignored; // an agent gone has taken its server with it
    m_server.call(method::stopServe, {}, stopTimeoutMs, &ignored);
}

} // namespace servelab::remote
