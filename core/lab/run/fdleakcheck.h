// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "metrics/processprobe.h"

#include <QStringList>

#include <functional>
#include <vector>

namespace servelab::lab {

// The leak detector between two points: waits for the server's descriptors to come back to
// what it held before the point (closing connections takes it a moment), then lists what it
// holds that it did not hold before, as lsof would ("fd 12 file /srv/root/4K.bin").
class FdLeakCheck
{
public:
    using Lister = std::function<std::vector<metrics::OpenFd>()>;

    explicit FdLeakCheck(Lister list) : m_list(std::move(list)) {}

    // The descriptors before a point.
    void baseline() { m_before = m_list(); }
    // After it: waits up to `graceMs` for the count to drop back, then lists the difference.
    QStringList leftOpen(int graceMs) const;

    // What `after` holds that `before` did not (same number and target counts as the same).
    static std::vector<metrics::OpenFd> opened(const std::vector<metrics::OpenFd> &before,
                                               const std::vector<metrics::OpenFd> &after);

private:
    Lister m_list;
    std::vector<metrics::OpenFd> m_before;
};

} // namespace servelab::lab
