// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "metrics/processprobe.h"

#include <QStringList>

#include <functional>
#include <vector>

namespace servelab::lab {

// The leak detector between two points: waits for the server's descriptors to come back to
// what it held before the point (closing connections takes it a moment), then lists what it
// holds that it did not hold before, as lsof would ("fd 12 file /srv/root/4K.bin"). Over a
// tree of processes (Apache's prefork children come and go), what a process started since
// inherited is not new: see opened().
class FdLeakCheck
{
public:
    using Lister = std::function<std::vector<metrics::OpenFd>()>;

    explicit FdLeakCheck(Lister list) : m_list(std::move(list)) {}

    // The descriptors before a point.
    void baseline() { m_before = m_list(); }
    // After it: waits up to `graceMs` for the count to drop back, then lists the difference.
    QStringList leftOpen(int graceMs) const;

    // What `after` holds that `before` did not: the same process, number and target count as
    // the same; in a process `before` did not have, a target some process held before does
    // (what a new child inherited: the listening socket, the logs).
    static std::vector<metrics::OpenFd> opened(const std::vector<metrics::OpenFd> &before,
                                               const std::vector<metrics::OpenFd> &after);
    // "fd 12 file /srv/root/4K.bin", with "(pid 345)" after the number for a process other than
    // the root.
    static QString describe(const metrics::OpenFd &fd);

private:
    Lister m_list;
    std::vector<metrics::OpenFd> m_before;
};

} // namespace servelab::lab
