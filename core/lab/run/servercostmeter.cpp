// SPDX-License-Identifier: Apache-2.0
#include "servercostmeter.h"

#include "metrics/processtreeprobe.h"

namespace servelab::lab {

ServerCostMeter::ServerCostMeter(pid_t pid, bool tree, bool inProcess)
    : m_pid(pid), m_tree(tree), m_inProcess(inProcess)
{}

void ServerCostMeter::start()
{
    m_pids.clear();
    if (m_pid <= 0)
        return;
    m_pids.push_back(m_pid);
    if (m_tree)
        for (pid_t child : metrics::ProcessTreeProbe::descendants(m_pid))
            m_pids.push_back(child);
    m_callsProblem.clear();
    m_calls.start(metrics::ProcessUsage::threadsOf(m_pids), &m_callsProblem);
    m_before = metrics::ProcessUsage::read({m_pid}, m_tree);
}

void ServerCostMeter::finish(PointResult *point)
{
    if (m_pids.empty()) {
        point->serverUse = {};
        point->costNote = QStringLiteral("the server's cost is not read: the target names no pid");
        return;
    }
    metrics::ResourceUse used =
        metrics::ProcessUsage::between(m_before, metrics::ProcessUsage::read({m_pid}, m_tree));
    used.syscalls = m_calls.count();
    m_calls.stop();
    if (m_inProcess && used.known()) {
        const metrics::ResourceUse &client = point->load.clientUse;
        const std::int64_t busy = used.busyThreads - std::max<std::int64_t>(0, client.busyThreads);
        used = used - client;
        used.busyThreads = std::max<std::int64_t>(0, busy);
    }
    point->serverUse = used;
    if (!used.known())
        point->costNote = QStringLiteral("the server's cost could not be read from /proc");
    else if (used.syscalls < 0)
        point->costNote =
            QStringLiteral("syscalls not counted: ") + QString::fromStdString(m_callsProblem);
}

} // namespace servelab::lab
