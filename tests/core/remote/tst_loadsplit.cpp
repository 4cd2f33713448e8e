// SPDX-License-Identifier: Apache-2.0
#include "lab/results/resultbundle.h"
#include "remote/loadsplit.h"

#include <QJsonDocument>
#include <QTest>

#include <numeric>
#include <random>

using servelab::client::LatencyHistogram;
using namespace servelab::remote;
using servelab::lab::ResultBundle;

class TestLoadSplit : public QObject
{
    Q_OBJECT

private slots:
    void sharesSumToTheWhole()
    {
        const std::vector<double> thirds{1, 1, 1};
        QCOMPARE(splitExactly(100, thirds), (std::vector<qint64>{34, 33, 33}));
        const std::vector<double> oneTwo{1, 2};
        QCOMPARE(splitExactly(10, oneTwo), (std::vector<qint64>{3, 7}));
        QCOMPARE(splitExactly(1, oneTwo), (std::vector<qint64>{0, 1}));
        QCOMPARE(splitExactly(0, oneTwo), (std::vector<qint64>{0, 0}));
        const std::vector<double> none;
        QVERIFY(splitExactly(5, none).empty());

        std::mt19937 random(7);
        std::uniform_real_distribution<double> weight(0.01, 10);
        std::uniform_int_distribution<qint64> whole(0, 2'000'000'000'000LL);
        for (int round = 0; round < 2000; ++round) {
            std::vector<double> weights(size_t(1 + round % 9));
            for (double &w : weights)
                w = weight(random);
            const qint64 total = round % 3 == 0 ? round : whole(random);
            const auto shares = splitExactly(total, weights);
            QCOMPARE(std::accumulate(shares.begin(), shares.end(), qint64(0)), total);
            // Each share within one unit of its exact part.
            const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
            for (size_t i = 0; i < weights.size(); ++i)
                QVERIFY(std::abs(double(shares[i]) - double(total) * weights[i] / sum) <=
                        1.0 + 1e-6 * double(total) / 1e6);
        }
    }

    // Three agents' histograms, sent as JSON (as the bundle keeps them) and merged bucket by
    // bucket, are the histogram of all their values.
    void mergedHistogramIsTheWhole()
    {
        std::mt19937 random(11);
        std::lognormal_distribution<double> latency(6.5, 1.2); // µs, a long tail
        LatencyHistogram all;
        LatencyHistogram agents[3];
        for (int i = 0; i < 60000; ++i) {
            const auto micros = std::int64_t(1 + latency(random));
            all.record(micros);
            agents[i % 7 == 0 ? 0 : (i % 2 ? 1 : 2)].record(micros);
        }
        LatencyHistogram merged;
        for (const auto &agent : agents) {
            const QByteArray wire =
                QJsonDocument(ResultBundle::latencyToJson(agent)).toJson(QJsonDocument::Compact);
            LatencyHistogram back;
            QVERIFY(ResultBundle::latencyFromJson(QJsonDocument::fromJson(wire).object(), &back));
            QCOMPARE(back.count(), agent.count());
            merged.merge(back);
        }
        QCOMPARE(merged.count(), all.count());
        for (int b = 0; b < LatencyHistogram::bucketCount(); ++b)
            QCOMPARE(merged.countInBucket(b), all.countInBucket(b));
        QCOMPARE(merged.min(), all.min());
        QCOMPARE(merged.max(), all.max());
        QCOMPARE(merged.mean(), all.mean());
        for (double p : {50.0, 90.0, 99.0, 99.9, 100.0})
            QCOMPARE(merged.valueAtPercentile(p), all.valueAtPercentile(p));
        LatencyHistogram bad;
        QVERIFY(!ResultBundle::latencyFromJson({{"hdr", "not base64 of a histogram"}}, &bad));
    }
};

QTEST_APPLESS_MAIN(TestLoadSplit)
#include "tst_loadsplit.moc"
