// SPDX-License-Identifier: Apache-2.0
#include "etaestimator.h"

#include <QMap>

#include <algorithm>

namespace servelab::lab {

namespace {

// Below this share of a point's time the bytes are noise: the slope between the smallest and
// the largest size says little, and only bounds the prior from above.
constexpr double visibleBytes = 0.5;

} // namespace

EtaEstimator::EtaEstimator(quint64 requestsPerPoint, double bytesPerSecond)
    : m_timeBound(requestsPerPoint == 0),
      m_priorPerByte(double(std::max<quint64>(1, requestsPerPoint)) * 1000.0 /
                     (bytesPerSecond > 0 ? bytesPerSecond : defaultBytesPerSecond))
{}

void EtaEstimator::record(int target, quint64 size, qint64 ms)
{
    m_byTarget[target].insert(size, ms);
    m_all.append(ms);
}

// The fixed part from the smallest size, the per-byte part from the slope up to the largest:
// `prior` until a larger size has run; where the largest took less than twice the smallest the
// slope is noise, but still bounds the per-byte part (the prior, at most that).
EtaEstimator::Line EtaEstimator::fit(const QMap<quint64, qint64> &points, double prior)
{
    const quint64 smallSize = points.firstKey(), largeSize = points.lastKey();
    const double small = double(points.first()), large = double(points.last());
    Line line;
    line.perByte = prior;
    if (largeSize > smallSize) {
        const double span = double(largeSize - smallSize);
        line.measured = large * visibleBytes >= small;
        line.perByte =
            line.measured ? std::max(0.0, (large - small) / span) : std::min(prior, small / span);
    }
    line.fixed = std::max(0.0, small - line.perByte * double(smallSize));
    return line;
}

// A target's line: fitted to its own points, the per-byte part before it shows taken from the
// targets whose bytes did (their mean), else the prior; a target not started yet takes the
// mean line of those that did.
EtaEstimator::Line EtaEstimator::lineOf(int target) const
{
    double perByte = 0, fixed = 0;
    int measured = 0, started = 0;
    for (auto it = m_byTarget.constBegin(); it != m_byTarget.constEnd(); ++it) {
        if (it.key() == target)
            continue;
        const Line other = fit(it.value(), m_priorPerByte);
        fixed += other.fixed;
        ++started;
        if (other.measured)
            perByte += other.perByte, ++measured;
    }
    const double prior = measured ? perByte / measured : m_priorPerByte;
    if (const auto own = m_byTarget.constFind(target); own != m_byTarget.constEnd())
        return fit(*own, prior);
    return {started ? fixed / started : 0, prior, measured > 0};
}

qint64 EtaEstimator::estimate(int target, quint64 size) const
{
    const auto own = m_byTarget.constFind(target);
    if (own != m_byTarget.constEnd() && own->contains(size))
        return own->value(size);
    if (m_all.isEmpty())
        return -1;
    if (m_timeBound) {
        const QList<qint64> points = own != m_byTarget.constEnd() ? own->values() : m_all;
        double sum = 0;
        for (const qint64 ms : points)
            sum += double(ms);
        return qint64(sum / double(points.size()));
    }
    const Line line = lineOf(target);
    return qint64(line.fixed + line.perByte * double(size));
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
