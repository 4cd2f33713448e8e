// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/sweepspec.h"
#include "lab/targets/target.h"

namespace servelab::remote {

class AgentChannel;

// A built-in server on the server host of a distributed run: started and stopped by its agent
// (serve, stop_serve), listening on the hosts file's server address (or its "listen"). It
// makes its own files of the spec's sizes there; nothing is copied between hosts. Its timeline,
// leak check and counters come through the agent's watch (HostFleet), not through this.
class RemoteTarget final : public lab::Target
{
public:
    RemoteTarget(AgentChannel &server, QString address, const lab::SweepSpec &spec);
    ~RemoteTarget() override;

    bool start(QString *error) override;
    quint16 port() const override { return m_port; }
    qint64 pid() const override { return 0; } // not a process of this machine
    bool tune(const QStringList &assignments, QString *error) override;
    void stop() override;

    // Why `spec` cannot run on a server host (empty: it can): what this first version leaves out.
    static QString unsupported(const lab::SweepSpec &spec);

private:
    AgentChannel &m_server;
    QString m_address;
    lab::SweepSpec m_spec;
    quint16 m_port = 0;
    bool m_serving = false;
};

} // namespace servelab::remote
