// SPDX-License-Identifier: Apache-2.0
#include "connector.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace servelab::remote {

namespace {

QStringList agentTail()
{
    return {QStringLiteral("{agent}"), QStringLiteral("agent"), QStringLiteral("--stdio")};
}

const std::vector<Connector> &rows()
{
    // BatchMode: a key or nothing, never a password prompt on a terminal the user cannot see.
    // StrictHostKeyChecking=yes: an unknown or changed host key is refused, never learned.
    // ServerAliveInterval: a link that went down ends ssh within ~3 s instead of never.
    static const std::vector<Connector> table = {
        {QStringLiteral("ssh"),
         QStringList{QStringLiteral("ssh"), QStringLiteral("-T"), QStringLiteral("-o"),
                     QStringLiteral("BatchMode=yes"), QStringLiteral("-o"),
                     QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"),
                     QStringLiteral("ServerAliveInterval=1"), QStringLiteral("-o"),
                     QStringLiteral("ServerAliveCountMax=3"), QStringLiteral("{options}"),
                     QStringLiteral("{host}")} +
             agentTail(),
         false,
         QStringLiteral("OpenSSH, with the user's keys and ~/.ssh/config (ProxyJump, ports)")},
        {QStringLiteral("kubectl"),
         QStringList{QStringLiteral("kubectl"), QStringLiteral("exec"), QStringLiteral("-i"),
                     QStringLiteral("{options}"), QStringLiteral("{host}"), QStringLiteral("--")} +
             agentTail(),
         false, QStringLiteral("a pod, through kubectl exec (host: the pod's name)")},
        {QStringLiteral("netns"),
         QStringList{QStringLiteral("ip"), QStringLiteral("netns"), QStringLiteral("exec"),
                     QStringLiteral("{host}")} +
             agentTail(),
         true, QStringLiteral("a network namespace of this machine (root; host: its name)")},
        {QStringLiteral("local"), agentTail(), true,
         QStringLiteral("a child process on this machine (host: any label)")},
    };
    return table;
}

} // namespace

QStringList Connector::command(const QString &host, const QString &agent,
                               const QStringList &options) const
{
    QStringList out;
    for (const QString &arg : argv) {
        if (arg == u"{options}") {
            out += options;
            continue;
        }
        QString expanded = arg;
        expanded.replace(QStringLiteral("{host}"), host);
        expanded.replace(QStringLiteral("{agent}"), agent);
        out << expanded;
    }
    return out;
}

QString Connector::problem() const
{
    if (argv.isEmpty())
        return QStringLiteral("connector \"%1\" has no command").arg(name);
    for (const QString &arg : argv)
        if (arg.contains(QStringLiteral("{agent}")))
            return {};
    return QStringLiteral("connector \"%1\" never names {agent}: write the agent's command "
                          "into it, as in [\"ssh\", \"{host}\", \"{agent}\", \"agent\", "
                          "\"--stdio\"]")
        .arg(name);
}

std::span<const Connector> Connector::builtin()
{
    return rows();
}

const Connector *Connector::find(const QString &name)
{
    for (const Connector &c : rows())
        if (c.name == name)
            return &c;
    return nullptr;
}

QString localAgentProgram()
{
    const QString beside = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() +
                                                              QStringLiteral("/servelab-cli")
                                                        : QString();
    if (!beside.isEmpty() && QFileInfo(beside).isExecutable())
        return beside;
    const QString fromEnvironment = qEnvironmentVariable("SERVELAB_CLI");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QStringLiteral("servelab-cli");
}

} // namespace servelab::remote
