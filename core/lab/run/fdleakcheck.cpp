// SPDX-License-Identifier: Apache-2.0
#include "fdleakcheck.h"

#include "metrics/clock.h"

#include <algorithm>
#include <thread>

namespace servelab::lab {

std::vector<metrics::OpenFd> FdLeakCheck::opened(const std::vector<metrics::OpenFd> &before,
                                                 const std::vector<metrics::OpenFd> &after)
{
    std::vector<metrics::OpenFd> out;
    for (const auto &fd : after) {
        const bool known = std::any_of(before.begin(), before.end(), [&](const auto &b) {
            return b.fd == fd.fd && b.target == fd.target;
        });
        if (!known)
            out.push_back(fd);
    }
    return out;
}

QStringList FdLeakCheck::leftOpen(int graceMs) const
{
    const std::int64_t deadline = metrics::monotonicMicros() + std::int64_t(graceMs) * 1000;
    std::vector<metrics::OpenFd> now = m_list();
    while (now.size() > m_before.size() && metrics::monotonicMicros() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        now = m_list();
    }
    if (now.size() <= m_before.size())
        return {}; // back to the count it started from (a fd number reused is not a leak)
    QStringList listed;
    for (const auto &fd : opened(m_before, now))
        listed << QStringLiteral("fd %1 %2 %3")
                      .arg(fd.fd)
                      .arg(QString::fromStdString(fd.type), QString::fromStdString(fd.target));
    return listed;
}

} // namespace servelab::lab
