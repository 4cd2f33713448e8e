// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "metrics/processusage.h"
#include "metrics/syscallcounter.h"

#include <sys/types.h>
#include <vector>

namespace servelab::lab {

// What a point costs the server: its processes read as the load starts and as it ends
// (ProcessUsage), and their system calls counted in between (SyscallCounter). An in-process
// target is this process: the client's threads are taken out of it, the lab's own (the
// sampler, the window) stay in, small next to a loaded server.
class ServerCostMeter
{
public:
    // `pid` 0: nothing to read (a url target named no pid). `tree`: its descendants too.
    ServerCostMeter(pid_t pid, bool tree, bool inProcess);
    void start();
    // Sets point->serverUse (and costNote when a figure is missing) from start() to now;
    // point->load must hold the client's use already.
    void finish(PointResult *point);

private:
    pid_t m_pid;
    bool m_tree;
    bool m_inProcess;
    std::vector<pid_t> m_pids;
    metrics::ProcessUsage::Reading m_before;
    metrics::SyscallCounter m_calls;
    std::string m_callsProblem;
};

} // namespace servelab::lab
