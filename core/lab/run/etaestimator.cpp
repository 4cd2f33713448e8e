// SPDX-License-Identifier: Apache-2.0
#include "etaestimator.h"

namespace servelab::lab {

namespace {

// The cost of one request apart from its bytes, in bytes' worth: the scaling between sizes
// assumes a point's time grows with (size + this), so 4K and 64K points take about as long and
// a 32M point far longer.
constexpr double fixedCostBytes = 64 * 1024;

qint64 scaled(QPair<quint64, qint64> known, quint64 size)
{
    return qint64(double(known.second) * (double(size) + fixedCostBytes) /
                  (double(known.first) + fixedCostBytes));
}

} // namespace

void EtaEstimator::record(int target, quint64 size, qint64 ms)
{
    m_exact.insert({target, size}, ms);
    auto &bySize = m_bySize[size];
    bySize.first += ms;
    bySize.second += 1;
    m_latest.insert(target, {size, ms});
    m_last = {size, ms};
}

qint64 EtaEstimator::estimate(int target, quint64 size) const
{
    if (const auto exact = m_exact.constFind({target, size}); exact != m_exact.constEnd())
        return *exact;
    if (const auto same = m_bySize.constFind(size); same != m_bySize.constEnd())
        return same->first / same->second;
    if (const auto latest = m_latest.constFind(target); latest != m_latest.constEnd())
        return scaled(*latest, size);
    return m_last.second < 0 ? -1 : scaled(m_last, size);
}

qint64 EtaEstimator::remainingMs(const QList<std::pair<int, quint64>> &points) const
{
    qint64 total = 0;
    for (const auto &[target, size] : points) {
        const qint64 ms = estimate(target, size);
        if (ms < 0)
            return -1;
        total += ms;
    }
    return total;
}

} // namespace servelab::lab
