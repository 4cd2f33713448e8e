// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <optional>
#include <span>

namespace servelab::remote {

// How the coordinator reaches an agent: a command template whose stdin and stdout become the
// agent's. "{host}" is the host as the hosts file names it, "{agent}" the agent's program
// there; "{options}" is replaced by the host's own extra arguments (none: removed). The
// built-in rows; a hosts file may add its own under "connectors".
struct Connector
{
    QString name;
    QStringList argv;
    bool sameMachine = false; // the agent runs on this machine's filesystem (netns, local)
    QString summary;

    // The command for one host.
    QStringList command(const QString &host, const QString &agent,
                        const QStringList &options) const;
    // Why a template cannot start an agent (empty: it can): it must name {agent}.
    QString problem() const;

    static std::span<const Connector> builtin();
    static const Connector *find(const QString &name);
};

// The servelab-cli beside the running program (the GUI's or the CLI's own), for connectors on
// this machine; "servelab-cli" (the PATH's) when there is none.
QString localAgentProgram();

} // namespace servelab::remote
