// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agentchannel.h"
#include "clocksync.h"

#include <QJsonObject>
#include <QString>

#include <memory>

namespace servelab::remote {

struct HostEntry;
struct HostsFile;

// One agent of a hosts file reached: its connector's command started, the version handshake
// made (hello's answer kept: version, kernel, cores, fd limits) and its clock measured
// (the minimum-RTT of `pings` pings). What hosts check and a distributed run both begin with.
struct AgentReach
{
    std::unique_ptr<AgentChannel> channel;
    QJsonObject hello;
    ClockOffset clock;
    QString problem; // empty: reached; else why not, naming the agent (ssh's words included)

    bool ok() const { return problem.isEmpty() && channel; }

    // `loadIndex` -1: the server host.
    static AgentReach reach(const HostsFile &hosts, const HostEntry &entry, int loadIndex,
                            int pings);
};

} // namespace servelab::remote
