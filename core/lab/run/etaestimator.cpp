// SPDX-License-Identifier: Apache-2.0
#include "etaestimator.h"

#include <QMap>

#include <algorithm>

namespace servelab::lab {

namespace {

// Below this share of the largest point's time the bytes are noise: its slope from the quickest
// point says little, and only bounds the prior from above.
constexpr double visibleBytes = 0.5;

} // namespace

EtaEstimator::EtaEstimator(quint64 requestsPerPoint, double bytesPerSecond)
    : m_timeBound(requestsPerPoint == 0), m_requests(std::max<quint64>(1, requestsPerPoint)),
      m_priorPerByte(perByte(bytesPerSecond > 0 ? bytesPerSecond : defaultBytesPerSecond))
{}

double EtaEstimator::perByte(double bytesPerSecond) const
{
    return double(m_requests) * 1000.0 / bytesPerSecond;
}

void EtaEstimator::setPrior(int target, double bytesPerSecond)
{
    if (bytesPerSecond > 0)
        m_priors.insert(target, perByte(bytesPerSecond));
}

void EtaEstimator::record(int target, quint64 size, qint64 ms)
{
    m_byTarget[target].insert(size, ms);
    m_all.append(ms);
}

// The fixed part is the target's quickest point (its first one also starts the server); the
// per-byte part the slope from there to the largest size once its bytes show (the largest point
// twice the quickest), before that the prior, bounded by what the largest point leaves room for.
EtaEstimator::Line EtaEstimator::fit(const QMap<quint64, qint64> &points, double prior)
{
    const double quickest = double(*std::min_element(points.begin(), points.end()));
    const double large = double(points.last()), largeSize = double(points.lastKey());
    Line line;
    line.fixed = quickest;
    line.perByte = prior;
    if (points.size() > 1)
        line.perByte = large * visibleBytes >= quickest
                           ? (large - quickest) / largeSize
                           : std::min(prior, std::max(large - quickest, quickest / 4) / largeSize);
    return line;
}

// A target's line: fitted to its own points, its bytes at the prior's pace until they show. Not
// the pace of the targets before it: strategies differ up to 6x at 16M (blocking+copy with 8 KiB
// against nginx in the default run), and the first target's pace made the estimate 3.4x too long
// for the rest. A target not started yet takes the others' mean fixed part.
EtaEstimator::Line EtaEstimator::lineOf(int target) const
{
    if (const auto own = m_byTarget.constFind(target); own != m_byTarget.constEnd())
        return fit(*own, priorOf(target));
    double fixed = 0;
    for (auto it = m_byTarget.constBegin(); it != m_byTarget.constEnd(); ++it)
        fixed += fit(it.value(), priorOf(it.key())).fixed;
    return {m_byTarget.isEmpty() ? 0 : fixed / double(m_byTarget.size()), priorOf(target)};
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
