// SPDX-License-Identifier: Apache-2.0
#include "latencyhistogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace servelab::client {

namespace {
constexpr int subBits = 7;
constexpr std::int64_t subCount = std::int64_t(1) << subBits; // buckets per power of two
} // namespace

int LatencyHistogram::bucketOf(std::int64_t v)
{
    v = std::clamp<std::int64_t>(v, 0, maxTrackable);
    if (v < 2 * subCount)
        return static_cast<int>(v);
    const int shift = std::bit_width(static_cast<std::uint64_t>(v)) - (subBits + 1);
    return static_cast<int>(subCount * shift + (v >> shift));
}

std::int64_t LatencyHistogram::bucketLowest(int bucket)
{
    if (bucket < 2 * subCount)
        return bucket;
    const int shift = static_cast<int>(bucket / subCount) - 1;
    const std::int64_t mantissa = bucket - subCount * shift;
    return mantissa << shift;
}

std::int64_t LatencyHistogram::bucketHighest(int bucket)
{
    if (bucket < 2 * subCount)
        return bucket;
    const int shift = static_cast<int>(bucket / subCount) - 1;
    const std::int64_t mantissa = bucket - subCount * shift;
    return ((mantissa + 1) << shift) - 1;
}

int LatencyHistogram::bucketCount()
{
    return bucketOf(maxTrackable) + 1;
}

// The buckets are allocated with the first value: an empty histogram (an idle interval, a
// sample kept only for its counters) costs a few words, not bucketCount() of them.
LatencyHistogram::LatencyHistogram() = default;

void LatencyHistogram::allocate()
{
    if (m_counts.empty())
        m_counts.assign(static_cast<std::size_t>(bucketCount()), 0);
}

void LatencyHistogram::record(std::int64_t micros)
{
    if (micros < 0)
        micros = 0;
    if (micros > maxTrackable) {
        ++m_clamped;
        micros = maxTrackable;
    }
    if (m_counts.empty()) [[unlikely]]
        allocate();
    ++m_counts[static_cast<std::size_t>(bucketOf(micros))];
    m_min = m_count ? std::min(m_min, micros) : micros;
    m_max = m_count ? std::max(m_max, micros) : micros;
    ++m_count;
    m_sum += static_cast<double>(micros);
    m_sumSquares += static_cast<double>(micros) * static_cast<double>(micros);
}

void LatencyHistogram::merge(const LatencyHistogram &other)
{
    if (other.m_count == 0)
        return;
    allocate();
    for (std::size_t i = 0; i < other.m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_min = m_count ? std::min(m_min, other.m_min) : other.m_min;
    m_max = m_count ? std::max(m_max, other.m_max) : other.m_max;
    m_count += other.m_count;
    m_clamped += other.m_clamped;
    m_sum += other.m_sum;
    m_sumSquares += other.m_sumSquares;
}

void LatencyHistogram::addToBucket(int bucket, std::uint64_t count)
{
    if (count == 0 || bucket < 0 || bucket >= bucketCount())
        return;
    const std::int64_t low = bucketLowest(bucket);
    const std::int64_t high = bucketHighest(bucket);
    m_min = m_count ? std::min(m_min, low) : low;
    m_max = m_count ? std::max(m_max, high) : high;
    allocate();
    m_counts[static_cast<std::size_t>(bucket)] += count;
    m_count += count;
    const double middle = (double(low) + double(high)) / 2;
    m_sum += middle * double(count);
    m_sumSquares += middle * middle * double(count);
}

void LatencyHistogram::restoreMoments(std::int64_t min, std::int64_t max, double sum,
                                      double sumSquares)
{
    m_min = min;
    m_max = max;
    m_sum = sum;
    m_sumSquares = sumSquares;
}

LatencyHistogram LatencyHistogram::since(const LatencyHistogram &earlier) const
{
    LatencyHistogram interval;
    interval.m_count = m_count - earlier.m_count;
    if (interval.m_count == 0)
        return interval;
    int first = -1;
    int last = -1;
    interval.allocate();
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        interval.m_counts[i] = m_counts[i] - (earlier.m_counts.empty() ? 0 : earlier.m_counts[i]);
        if (interval.m_counts[i]) {
            if (first < 0)
                first = static_cast<int>(i);
            last = static_cast<int>(i);
        }
    }
    interval.m_clamped = m_clamped - earlier.m_clamped;
    interval.m_sum = m_sum - earlier.m_sum;
    interval.m_sumSquares = m_sumSquares - earlier.m_sumSquares;
    interval.m_min = std::max(bucketLowest(first), m_min);
    interval.m_max = std::min(bucketHighest(last), m_max);
    return interval;
}

void LatencyHistogram::clear()
{
    *this = LatencyHistogram();
}

double LatencyHistogram::mean() const
{
    return m_count ? m_sum / static_cast<double>(m_count) : 0.0;
}

double LatencyHistogram::stddev() const
{
    if (m_count < 2)
        return 0.0;
    const double n = static_cast<double>(m_count);
    const double variance = (m_sumSquares - m_sum * m_sum / n) / (n - 1);
    return variance > 0 ? std::sqrt(variance) : 0.0;
}

std::int64_t LatencyHistogram::valueAtPercentile(double percentile) const
{
    if (m_count == 0)
        return 0;
    const double p = std::clamp(percentile, 0.0, 100.0);
    // p / 100 * count can land a hair above a whole rank (7 / 100.0 * 100 is 7.000000000000001,
    // 99.9 / 100.0 * 1000 is 999.0000000000001), and ceil() then reported the next rank up.
    const double rank = p / 100.0 * static_cast<double>(m_count);
    const auto wanted =
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(rank - rank * 1e-12)));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < m_counts.size(); ++i) {
        seen += m_counts[i];
        if (seen >= wanted)
            return std::clamp(bucketHighest(static_cast<int>(i)), m_min, m_max);
    }
    return m_max;
}

} // namespace servelab::client
