// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connector.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace servelab::remote {

// One host of a distributed run, as the hosts file names it.
struct HostEntry
{
    QString host; // ssh's destination ("user@web1", a ~/.ssh/config alias), a pod, a netns
    QString via = QStringLiteral("ssh"); // the connector
    QStringList options;                 // the connector's {options}: ["-p", "2222"], ["-n", "lab"]
    QString agent;     // the agent's program there; empty: the file's, or the default
    QString address;   // server only: the address load agents reach it at
    QString listen;    // server only: the address it binds to (empty: `address`), as 0.0.0.0
                       // where `address` is a name (a pod's DNS name)
    double weight = 1; // load only: its share of the load is weight / sum of weights
};

// `--hosts FILE`: which host serves and which load, and how each is reached.
//   {"servelab": 1,
//    "server": {"host": "web1", "address": "10.0.0.1"},   (and "listen": "0.0.0.0" to bind apart)
//    "load": [{"host": "load1"}, {"host": "load2", "weight": 2, "options": ["-p", "2222"]}],
//    "agent": "/opt/servelab/bin/servelab-cli",
//    "connectors": {"lab": ["ssh", "-J", "bastion", "{host}", "{agent}", "agent", "--stdio"]}}
// Every error names the file, the line and the field, and what to write instead.
struct HostsFile
{
    HostEntry server;
    QList<HostEntry> load;
    QString agent;               // the agent's program on every host that names none
    QList<Connector> connectors; // the file's own, beside the built-in ones

    static std::optional<HostsFile> read(const QString &path, QString *why);
    static std::optional<HostsFile> parse(const QByteArray &text, const QString &fileName,
                                          QString *why);
    // What parse() reads back: kept with an experiment.
    QJsonObject toJson() const;

    const Connector *connector(const QString &name) const;
    // The command that starts this host's agent.
    QStringList command(const HostEntry &entry) const;
    // The address the server binds to: `listen`, or `address`.
    QString serverListen() const
    {
        return server.listen.isEmpty() ? server.address : server.listen;
    }
    // "server web1", "load agent 2 (load2)".
    static QString label(const HostEntry &entry, int loadIndex);
};

} // namespace servelab::remote
