// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "processprobe.h"

#include <memory>
#include <vector>

namespace servelab::metrics {

// A server as the processes it is made of: one process and, when asked, every descendant it
// has at each sample (Apache's prefork children start and exit under load; nginx's workers).
// A sample is the sum over them: descriptors (by type when every process listed its types),
// threads, RSS and CPU, with the number of processes and each one's own figures
// (ProcessSample::parts). CPU stays monotonic as children exit: a child's last CPU time is kept
// in the sum once it is gone (what it used after its last sample, under 100 ms, is not seen).
// Descendants come from /proc/PID/task/TID/children (Linux 3.5+, CONFIG_PROC_CHILDREN), or from
// every process's parent in /proc where the kernel has no such file. Finding them costs a read
// per thread of each process (a 350-thread server: 3 % of a core at every sample), so when it
// costs more than `followBudgetMicros` they are looked for every few samples only. Not
// thread-safe.
class ProcessTreeProbe
{
public:
    // Opens `root`; with `followChildren`, its descendants too (found again at each sample).
    bool open(pid_t root, bool followChildren, std::string *error);
    pid_t pid() const { return m_root; }
    ProcessSample sample(bool byType = false);
    // Every descriptor of every process of the tree, each with its process (OpenFd::pid).
    std::vector<OpenFd> openFds();

    // The descendants of `root` now, children before grandchildren.
    static std::vector<pid_t> descendants(pid_t root);
    static constexpr std::int64_t followBudgetMicros = 300; // per sample: 0.3 % of a core

private:
    struct Member
    {
        std::unique_ptr<ProcessProbe> probe;
        double userSeconds = 0; // its last CPU time, kept when it is gone
        double systemSeconds = 0;
    };
    void follow();

    pid_t m_root = 0;
    bool m_follow = false;
    std::vector<Member> m_members; // the root first
    double m_goneUserSeconds = 0;
    double m_goneSystemSeconds = 0;
    int m_followEvery = 1; // look for descendants every this many samples
    int m_sinceFollow = 0;
};

} // namespace servelab::metrics
