// SPDX-License-Identifier: Apache-2.0
#include "fdleakcheck.h"

#include "metrics/clock.h"

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <tuple>

namespace servelab::lab {

std::vector<metrics::OpenFd> FdLeakCheck::opened(const std::vector<metrics::OpenFd> &before,
                                                 const std::vector<metrics::OpenFd> &after)
{
    std::set<std::tuple<pid_t, int, std::string_view>> held;
    std::set<std::string_view> targets;
    std::set<pid_t> processes;
    for (const auto &fd : before) {
        held.emplace(fd.pid, fd.fd, fd.target);
        targets.insert(fd.target);
        processes.insert(fd.pid);
    }
    std::vector<metrics::OpenFd> out;
    for (const auto &fd : after) {
        const bool known = processes.count(fd.pid) ? held.count({fd.pid, fd.fd, fd.target}) > 0
                                                   : targets.count(fd.target) > 0;
        if (!known)
            out.push_back(fd);
    }
    return out;
}

QString FdLeakCheck::describe(const metrics::OpenFd &fd)
{
    return QStringLiteral("fd %1%2 %3 %4")
        .arg(fd.fd)
        .arg(fd.pid ? QStringLiteral(" (pid %1)").arg(fd.pid) : QString())
        .arg(QString::fromStdString(fd.type), QString::fromStdString(fd.target));
}

QStringList FdLeakCheck::leftOpen(int graceMs) const
{
    const std::int64_t deadline = metrics::monotonicMicros() + std::int64_t(graceMs) * 1000;
    // Back to the count it started from (a number reused is not a leak), or nothing new (a
    // process of the tree that started since holds what it inherited).
    const auto settled = [this](const std::vector<metrics::OpenFd> &now) {
        return now.size() <= m_before.size() || opened(m_before, now).empty();
    };
    std::vector<metrics::OpenFd> now = m_list();
    while (!settled(now) && metrics::monotonicMicros() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        now = m_list();
    }
    if (settled(now))
        return {};
    QStringList listed;
    for (const auto &fd : opened(m_before, now))
        listed << describe(fd);
    return listed;
}

} // namespace servelab::lab
