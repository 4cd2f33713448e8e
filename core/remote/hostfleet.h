// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agentreach.h"
#include "hostsfile.h"

#include "lab/run/remotehosts.h"

#include <memory>
#include <mutex>
#include <vector>

namespace servelab::remote {

class DistributedLoad;

// The hosts of a distributed run, reached through their agents: the server agent runs the
// target (RemoteTarget) and watches it for each point (ServerWatch, on its clock, brought onto
// this one), the load agents split each point between them (DistributedLoad). The channels
// stay open for the whole experiment and close with this.
class HostFleet final : public lab::RemoteHosts
{
public:
    explicit HostFleet(HostsFile hosts);
    ~HostFleet() override;

    // The fleet of the hosts file `path` for an experiment of `targets` (not connected yet), or
    // null with *why: the file unreadable or wrong (its line and field named), or a target a
    // server host cannot run yet (RemoteTarget::unsupported).
    static std::shared_ptr<HostFleet> open(const QString &path,
                                           const QList<lab::SweepSpec> &targets, QString *why);

    bool connect(QString *why) override;
    QJsonObject facts() const override;
    std::unique_ptr<lab::Target> target(const lab::SweepSpec &spec) override;
    QString serverAddress() const override { return m_hosts.server.address; }
    bool watchServer(QString *why) override;
    void endWatch(lab::PointResult *point) override;
    void runLoad(const lab::SweepSpec &spec, quint64 size, quint16 port, lab::PointResult *point,
                 client::SampleSink *live = nullptr,
                 std::function<void(std::int64_t)> started = {}) override;
    void stopLoad() override;

private:
    void refreshServerClock();

    HostsFile m_hosts;
    AgentReach m_server;
    std::vector<AgentReach> m_load;
    bool m_watching = false;
    std::mutex m_mutex; // m_running and m_stopped, for stopLoad() from another thread
    DistributedLoad *m_running = nullptr;
    bool m_stopped = false;
};

} // namespace servelab::remote
