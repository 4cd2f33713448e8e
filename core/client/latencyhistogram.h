// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <vector>

namespace servelab::client {

// A log-linear histogram of latencies in microseconds, 1 µs … 60 s (larger values are clamped
// and counted in clamped()). Values below 256 µs are exact; above, each power of two is split
// into 128 buckets, so any reported value is within 1/128 (< 0.8 %) of a recorded one.
// The buckets are HdrHistogram's for 2 significant digits and a lowest value of 1, so the counts
// export as they are (HdrHistogramLog).
// Written here because Debian 12 packages no HdrHistogram library for C or C++.
class LatencyHistogram
{
public:
    static constexpr std::int64_t maxTrackable = 60'000'000;

    LatencyHistogram();

    void record(std::int64_t micros);
    void merge(const LatencyHistogram &other);
    // What was recorded since `earlier`, an older copy of this histogram (for interval
    // samples without touching the recording path). Min and max are bucket-exact.
    LatencyHistogram since(const LatencyHistogram &earlier) const;
    void clear();

    std::uint64_t count() const { return m_count; }
    std::uint64_t clamped() const { return m_clamped; }
    std::int64_t min() const { return m_count ? m_min : 0; }
    std::int64_t max() const { return m_count ? m_max : 0; }
    double mean() const;
    double stddev() const;
    // The smallest recorded value v such that at least `percentile` % of values are ≤ v,
    // reported as the top of its bucket and clamped to [min, max].
    std::int64_t valueAtPercentile(double percentile) const;

    static int bucketOf(std::int64_t micros);
    static std::int64_t bucketLowest(int bucket);
    static std::int64_t bucketHighest(int bucket);
    static int bucketCount();
    // Rebuilding a stored histogram: counts per bucket (min and max become the buckets' bounds,
    // the moments their midpoints), then the exact figures if they were kept.
    void addToBucket(int bucket, std::uint64_t count);
    void restoreMoments(std::int64_t min, std::int64_t max, double sum, double sumSquares);
    double sum() const { return m_sum; }
    double sumSquares() const { return m_sumSquares; }
    std::uint64_t countInBucket(int bucket) const
    {
        return m_counts.empty() ? 0 : m_counts[static_cast<std::size_t>(bucket)];
    }

private:
    void allocate();

    std::vector<std::uint64_t> m_counts; // empty until the first value
    std::uint64_t m_count = 0;
    std::uint64_t m_clamped = 0;
    std::int64_t m_min = 0;
    std::int64_t m_max = 0;
    double m_sum = 0;
    double m_sumSquares = 0;
};

} // namespace servelab::client
