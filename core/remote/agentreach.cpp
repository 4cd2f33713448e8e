// SPDX-License-Identifier: Apache-2.0
#include "agentreach.h"

#include "agentprotocol.h"
#include "hostsfile.h"

#include <vector>

namespace servelab::remote {

namespace {

// ssh may ask DNS, open a TCP connection and exchange keys before the agent even starts.
constexpr int connectTimeoutMs = 30000;
constexpr int callTimeoutMs = 10000;

} // namespace

AgentReach AgentReach::reach(const HostsFile &hosts, const HostEntry &entry, int loadIndex,
                             int pings)
{
    AgentReach agent;
    agent.channel = std::make_unique<AgentChannel>(HostsFile::label(entry, loadIndex));
    if (!agent.channel->start(hosts.command(entry), &agent.problem))
        return agent;
    const auto hello = agent.channel->call(
        method::hello,
        {{QStringLiteral("protocol"), protocolVersion}, {QStringLiteral("version"), buildName()}},
        connectTimeoutMs, &agent.problem);
    if (!hello)
        return agent;
    agent.hello = *hello;
    std::vector<ClockSample> samples;
    for (int i = 0; i < pings; ++i) {
        const auto sample = agent.channel->ping(callTimeoutMs, &agent.problem);
        if (!sample)
            return agent;
        samples.push_back(*sample);
    }
    agent.clock = estimateClockOffset(samples);
    agent.problem.clear();
    return agent;
}

} // namespace servelab::remote
