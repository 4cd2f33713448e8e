// SPDX-License-Identifier: Apache-2.0
#include "client/latencyhistogram.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using servelab::client::LatencyHistogram;

namespace {

constexpr std::int64_t continuityLimit = std::int64_t(1) << 20;

// Percentiles as parts per million, so the reference rank is computed in exact integers.
constexpr std::int64_t percentilesPpm[] = {0,       1,       10'000,  100'000,  250'000,
                                           500'000, 750'000, 900'000, 950'000,  990'000,
                                           999'000, 999'900, 999'990, 1'000'000};

// The smallest recorded value v such that at least ppm/10^6 of the values are <= v.
std::int64_t referencePercentile(const std::vector<std::int64_t> &sorted, std::int64_t ppm)
{
    const auto n = static_cast<std::int64_t>(sorted.size());
    const std::int64_t rank = std::max<std::int64_t>(1, (ppm * n + 999'999) / 1'000'000);
    return sorted[static_cast<std::size_t>(rank - 1)];
}

std::vector<std::int64_t> sample(const QByteArray &kind, std::size_t n)
{
    std::mt19937_64 random(20240601);
    std::vector<std::int64_t> values;
    values.reserve(n);
    if (kind == "log-uniform 1 us .. 10 s") {
        std::uniform_real_distribution<double> exponent(0.0, std::log(1e7));
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(std::llround(std::exp(exponent(random))));
    } else if (kind == "uniform 0 .. 1000 us") {
        std::uniform_int_distribution<std::int64_t> uniform(0, 1000);
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(uniform(random));
    } else if (kind == "normal around 5 ms") {
        std::normal_distribution<double> normal(5000.0, 300.0);
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(std::max<std::int64_t>(1, std::llround(normal(random))));
    } else if (kind == "bimodal 80 us / 40 ms") {
        std::uniform_int_distribution<std::int64_t> fast(60, 100);
        std::uniform_int_distribution<std::int64_t> slow(30'000, 50'000);
        for (std::size_t i = 0; i < n; ++i)
            values.push_back(i % 10 == 0 ? slow(random) : fast(random));
    }
    return values;
}

} // namespace

class TestLatencyHistogram : public QObject
{
    Q_OBJECT

private slots:
    void bucketMappingIsContinuous();
    void bucketEnds();
    void bucketRelativeError();
    void percentiles_data();
    void percentiles();
    void percentileRanksAreExact();
    void meanMinMaxExact();
    void singleValue();
    void mergeEqualsRecordingIntoOne();
    void mergeWithEmpty();
    void clamping();
    void emptyHistogram();
    void clearEmpties();
};

void TestLatencyHistogram::bucketMappingIsContinuous()
{
    int previous = LatencyHistogram::bucketOf(0);
    QCOMPARE(previous, 0);
    QCOMPARE(LatencyHistogram::bucketLowest(0), std::int64_t(0));
    for (std::int64_t v = 0; v <= continuityLimit; ++v) {
        const int bucket = LatencyHistogram::bucketOf(v);
        if (bucket < previous || bucket > previous + 1)
            QFAIL(qPrintable(QStringLiteral("bucketOf(%1) = %2 after bucket %3")
                                 .arg(v)
                                 .arg(bucket)
                                 .arg(previous)));
        if (bucket == previous + 1 &&
            LatencyHistogram::bucketLowest(bucket) != LatencyHistogram::bucketHighest(previous) + 1)
            QFAIL(qPrintable(
                QStringLiteral("gap between buckets %1 and %2").arg(previous).arg(bucket)));
        if (LatencyHistogram::bucketLowest(bucket) > v ||
            LatencyHistogram::bucketHighest(bucket) < v)
            QFAIL(qPrintable(QStringLiteral("%1 outside its bucket %2 [%3, %4]")
                                 .arg(v)
                                 .arg(bucket)
                                 .arg(LatencyHistogram::bucketLowest(bucket))
                                 .arg(LatencyHistogram::bucketHighest(bucket))));
        previous = bucket;
    }
}

void TestLatencyHistogram::bucketEnds()
{
    // Every bucket up to the last holds its own ends, and the last one holds maxTrackable.
    const int count = LatencyHistogram::bucketCount();
    QVERIFY(count > 0);
    for (int bucket = 0; bucket < count; ++bucket) {
        const auto lowest = LatencyHistogram::bucketLowest(bucket);
        const auto highest = LatencyHistogram::bucketHighest(bucket);
        if (lowest > highest || LatencyHistogram::bucketOf(lowest) != bucket ||
            (highest <= LatencyHistogram::maxTrackable &&
             LatencyHistogram::bucketOf(highest) != bucket) ||
            (bucket > 0 && lowest != LatencyHistogram::bucketHighest(bucket - 1) + 1))
            QFAIL(qPrintable(QStringLiteral("bucket %1 [%2, %3] is inconsistent")
                                 .arg(bucket)
                                 .arg(lowest)
                                 .arg(highest)));
    }
    const int last = count - 1;
    QCOMPARE(LatencyHistogram::bucketOf(LatencyHistogram::maxTrackable), last);
    QVERIFY(LatencyHistogram::bucketLowest(last) <= LatencyHistogram::maxTrackable);
    QVERIFY(LatencyHistogram::bucketHighest(last) >= LatencyHistogram::maxTrackable);
    QCOMPARE(LatencyHistogram::bucketOf(LatencyHistogram::maxTrackable + 1), last);
    QCOMPARE(LatencyHistogram::bucketOf(std::numeric_limits<std::int64_t>::max()), last);
    QCOMPARE(LatencyHistogram::bucketOf(-1), 0);
    QCOMPARE(LatencyHistogram::bucketOf(std::numeric_limits<std::int64_t>::min()), 0);
    // Below 256 µs every value has its own bucket.
    for (std::int64_t v = 0; v < 256; ++v) {
        const int bucket = LatencyHistogram::bucketOf(v);
        QCOMPARE(LatencyHistogram::bucketLowest(bucket), v);
        QCOMPARE(LatencyHistogram::bucketHighest(bucket), v);
    }
}

void TestLatencyHistogram::bucketRelativeError()
{
    const auto check = [](std::int64_t v) {
        const int bucket = LatencyHistogram::bucketOf(v);
        const double high = double(LatencyHistogram::bucketHighest(bucket));
        const double low = double(LatencyHistogram::bucketLowest(bucket));
        return (high - double(v)) / double(v) < 0.01 && (double(v) - low) / double(v) < 0.01;
    };
    for (std::int64_t v = 1; v <= continuityLimit; ++v) {
        if (!check(v))
            QFAIL(qPrintable(QStringLiteral("bucket of %1 is over 1 % wide").arg(v)));
    }
    // Above 2^20: each power of two and its neighbours, and a pseudo-random spread.
    for (std::int64_t p = continuityLimit; p <= LatencyHistogram::maxTrackable; p *= 2) {
        for (std::int64_t v : {p - 1, p, p + 1, p + p / 3})
            QVERIFY2(check(v), qPrintable(QString::number(v)));
    }
    std::mt19937_64 random(7);
    std::uniform_int_distribution<std::int64_t> spread(continuityLimit,
                                                       LatencyHistogram::maxTrackable);
    for (int i = 0; i < 100'000; ++i) {
        const auto v = spread(random);
        if (!check(v))
            QFAIL(qPrintable(QStringLiteral("bucket of %1 is over 1 % wide").arg(v)));
    }
    QVERIFY(check(LatencyHistogram::maxTrackable));
}

void TestLatencyHistogram::percentiles_data()
{
    QTest::addColumn<QByteArray>("kind");
    for (const char *kind : {"log-uniform 1 us .. 10 s", "uniform 0 .. 1000 us",
                             "normal around 5 ms", "bimodal 80 us / 40 ms"})
        QTest::newRow(kind) << QByteArray(kind);
}

void TestLatencyHistogram::percentiles()
{
    QFETCH(QByteArray, kind);
    auto values = sample(kind, 100'000);
    QCOMPARE(values.size(), std::size_t(100'000));

    LatencyHistogram histogram;
    for (auto v : values)
        histogram.record(v);
    std::sort(values.begin(), values.end());

    for (const auto ppm : percentilesPpm) {
        const double percentile = double(ppm) / 10'000.0;
        const auto expected = referencePercentile(values, ppm);
        const auto actual = histogram.valueAtPercentile(percentile);
        const auto message =
            QStringLiteral("p%1: histogram %2, exact %3").arg(percentile).arg(actual).arg(expected);
        QVERIFY2(std::abs(double(actual - expected)) <= 0.01 * double(expected),
                 qPrintable(message));
        QVERIFY2(actual >= values.front() && actual <= values.back(), qPrintable(message));
    }
    QCOMPARE(histogram.valueAtPercentile(100), values.back());
    QCOMPARE(histogram.valueAtPercentile(150), values.back());
    QCOMPARE(histogram.valueAtPercentile(-5), histogram.valueAtPercentile(0));
}

// Below 256 µs buckets are exact, so the percentile must be exactly the value of rank
// ceil(p / 100 * n): no rounding of p may push it one rank up.
void TestLatencyHistogram::percentileRanksAreExact()
{
    LatencyHistogram hundred;
    for (std::int64_t v = 1; v <= 100; ++v)
        hundred.record(v);
    QCOMPARE(hundred.valueAtPercentile(0), std::int64_t(1));
    QCOMPARE(hundred.valueAtPercentile(0.5), std::int64_t(1));
    QCOMPARE(hundred.valueAtPercentile(1.5), std::int64_t(2));
    for (int p = 1; p <= 100; ++p) {
        QVERIFY2(
            hundred.valueAtPercentile(p) == p,
            qPrintable(
                QStringLiteral("p%1 of 1..100 is %2").arg(p).arg(hundred.valueAtPercentile(p))));
    }

    // 999 fast requests and one slow one: p99.9 is still fast, anything above is the slow one.
    LatencyHistogram thousand;
    for (int i = 0; i < 999; ++i)
        thousand.record(100);
    thousand.record(200);
    QCOMPARE(thousand.valueAtPercentile(99.9), std::int64_t(100));
    QCOMPARE(thousand.valueAtPercentile(99.91), std::int64_t(200));
    QCOMPARE(thousand.valueAtPercentile(99.99), std::int64_t(200));
}

void TestLatencyHistogram::meanMinMaxExact()
{
    const auto values = sample("log-uniform 1 us .. 10 s", 50'000);
    LatencyHistogram histogram;
    std::int64_t sum = 0;
    long double sumSquares = 0;
    for (auto v : values) {
        histogram.record(v);
        sum += v;
        sumSquares += (long double)v * v;
    }
    const auto n = static_cast<std::int64_t>(values.size());
    QCOMPARE(histogram.count(), std::uint64_t(n));
    QCOMPARE(histogram.clamped(), std::uint64_t(0));
    QCOMPARE(histogram.min(), *std::min_element(values.begin(), values.end()));
    QCOMPARE(histogram.max(), *std::max_element(values.begin(), values.end()));
    // Each value is an integer and the sum stays below 2^53, so the mean is exact.
    QVERIFY(sum < (std::int64_t(1) << 53));
    QVERIFY(histogram.mean() == double(sum) / double(n));

    const long double mean = (long double)sum / n;
    const long double variance = (sumSquares - mean * mean * n) / (n - 1);
    const double expectedStddev = double(std::sqrt(variance));
    QVERIFY2(std::abs(histogram.stddev() - expectedStddev) <= 1e-6 * expectedStddev,
             qPrintable(QStringLiteral("%1 vs %2").arg(histogram.stddev()).arg(expectedStddev)));
}

void TestLatencyHistogram::singleValue()
{
    LatencyHistogram histogram;
    histogram.record(1'234'567);
    QCOMPARE(histogram.count(), std::uint64_t(1));
    QCOMPARE(histogram.min(), std::int64_t(1'234'567));
    QCOMPARE(histogram.max(), std::int64_t(1'234'567));
    QCOMPARE(histogram.mean(), 1'234'567.0);
    QCOMPARE(histogram.stddev(), 0.0);
    // Clamped to [min, max], the top of the bucket gives back the value itself.
    for (double p : {0.0, 50.0, 99.9, 100.0})
        QCOMPARE(histogram.valueAtPercentile(p), std::int64_t(1'234'567));
}

void TestLatencyHistogram::mergeEqualsRecordingIntoOne()
{
    auto values = sample("log-uniform 1 us .. 10 s", 40'000);
    values.push_back(LatencyHistogram::maxTrackable + 5); // clamped, in one part only
    values.push_back(0);

    LatencyHistogram all;
    LatencyHistogram parts[4];
    for (std::size_t i = 0; i < values.size(); ++i) {
        all.record(values[i]);
        parts[i % 4].record(values[i]);
    }
    LatencyHistogram merged;
    for (const auto &part : parts)
        merged.merge(part);

    QCOMPARE(merged.count(), all.count());
    QCOMPARE(merged.clamped(), all.clamped());
    QCOMPARE(merged.clamped(), std::uint64_t(1));
    QCOMPARE(merged.min(), all.min());
    QCOMPARE(merged.max(), all.max());
    QCOMPARE(merged.mean(), all.mean());
    QCOMPARE(merged.stddev(), all.stddev());
    for (int tenThousandths = 0; tenThousandths <= 1'000'000; tenThousandths += 250) {
        const double p = tenThousandths / 10'000.0;
        if (merged.valueAtPercentile(p) != all.valueAtPercentile(p))
            QFAIL(qPrintable(QStringLiteral("p%1: merged %2, recorded %3")
                                 .arg(p)
                                 .arg(merged.valueAtPercentile(p))
                                 .arg(all.valueAtPercentile(p))));
    }
}

void TestLatencyHistogram::mergeWithEmpty()
{
    LatencyHistogram some;
    some.record(300);
    some.record(7000);

    LatencyHistogram into;
    into.merge(some);
    QCOMPARE(into.count(), std::uint64_t(2));
    QCOMPARE(into.min(), std::int64_t(300));
    QCOMPARE(into.max(), std::int64_t(7000));

    some.merge(LatencyHistogram());
    QCOMPARE(some.count(), std::uint64_t(2));
    QCOMPARE(some.min(), std::int64_t(300));
    QCOMPARE(some.max(), std::int64_t(7000));
    QCOMPARE(some.valueAtPercentile(50), into.valueAtPercentile(50));
}

void TestLatencyHistogram::clamping()
{
    LatencyHistogram histogram;
    histogram.record(LatencyHistogram::maxTrackable);
    QCOMPARE(histogram.clamped(), std::uint64_t(0));
    histogram.record(LatencyHistogram::maxTrackable + 1);
    histogram.record(120'000'000);
    histogram.record(std::numeric_limits<std::int64_t>::max());
    QCOMPARE(histogram.clamped(), std::uint64_t(3));
    QCOMPARE(histogram.count(), std::uint64_t(4));
    QCOMPARE(histogram.max(), LatencyHistogram::maxTrackable);
    QCOMPARE(histogram.valueAtPercentile(100), LatencyHistogram::maxTrackable);
    QCOMPARE(histogram.mean(), double(LatencyHistogram::maxTrackable));

    // Negative values (a clock step) count as 0 µs and are not "clamped above".
    histogram.record(-7);
    QCOMPARE(histogram.clamped(), std::uint64_t(3));
    QCOMPARE(histogram.min(), std::int64_t(0));
    QCOMPARE(histogram.valueAtPercentile(0), std::int64_t(0));
}

void TestLatencyHistogram::emptyHistogram()
{
    const LatencyHistogram histogram;
    QCOMPARE(histogram.count(), std::uint64_t(0));
    QCOMPARE(histogram.clamped(), std::uint64_t(0));
    QCOMPARE(histogram.min(), std::int64_t(0));
    QCOMPARE(histogram.max(), std::int64_t(0));
    QCOMPARE(histogram.mean(), 0.0);
    QCOMPARE(histogram.stddev(), 0.0);
    for (double p : {0.0, 50.0, 99.0, 100.0})
        QCOMPARE(histogram.valueAtPercentile(p), std::int64_t(0));
}

void TestLatencyHistogram::clearEmpties()
{
    LatencyHistogram histogram;
    histogram.record(5000);
    histogram.record(LatencyHistogram::maxTrackable * 2);
    histogram.clear();
    QCOMPARE(histogram.count(), std::uint64_t(0));
    QCOMPARE(histogram.clamped(), std::uint64_t(0));
    QCOMPARE(histogram.max(), std::int64_t(0));
    QCOMPARE(histogram.valueAtPercentile(50), std::int64_t(0));
    histogram.record(42);
    QCOMPARE(histogram.min(), std::int64_t(42));
    QCOMPARE(histogram.valueAtPercentile(100), std::int64_t(42));
}

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
