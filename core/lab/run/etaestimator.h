// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QList>

#include <utility>

namespace servelab::lab {

// How long the rest of an experiment will take, from how long its points took so far. A point
// measured before (an earlier repetition of the same target and size) takes what it took then;
// otherwise what that size took for other targets; otherwise the target's latest point scaled
// by size (a closed client's point is n requests of a fixed cost plus the bytes); with nothing
// measured yet, no estimate.
class EtaEstimator
{
public:
    // A point of `target` (its index in the experiment) at `size` took `ms`.
    void record(int target, quint64 size, qint64 ms);
    // The points still to run as (target, size); -1 when nothing is known to estimate from.
    qint64 remainingMs(const QList<std::pair<int, quint64>> &points) const;

private:
    qint64 estimate(int target, quint64 size) const;

    QHash<QPair<int, quint64>, qint64> m_exact;  // latest time of that target at that size
    QHash<quint64, QPair<qint64, int>> m_bySize; // sum and count of that size over targets
    QHash<int, QPair<quint64, qint64>> m_latest; // each target's latest size and time
    QPair<quint64, qint64> m_last{0, -1};        // the latest point of any target
};

} // namespace servelab::lab
