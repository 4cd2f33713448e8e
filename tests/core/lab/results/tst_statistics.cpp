// SPDX-License-Identifier: Apache-2.0
#include "lab/results/statistics.h"

#include <QTest>

#include <cmath>

using servelab::lab::Statistics;

class TestStatistics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Worked by hand: 10, 12, 14 → mean 12, s = 2, t(2) = 4.303, half-width 4.303 · 2 / √3.
    void threeValues()
    {
        const auto s = Statistics::of({10, 12, 14});
        QCOMPARE(s.count, 3);
        QCOMPARE(s.mean, 12.0);
        QCOMPARE(s.stddev, 2.0);
        QVERIFY(qAbs(s.halfWidth - 4.303 * 2 / std::sqrt(3.0)) < 1e-9);
        QVERIFY(qAbs(s.low() - (12 - 4.968676)) < 1e-5);
        QVERIFY(qAbs(s.cv - 2.0 / 12) < 1e-12);
        QVERIFY(s.noisy); // 16.7 % > 5 %
    }

    void oneValueHasNoSpread()
    {
        const auto s = Statistics::of({42});
        QCOMPARE(s.mean, 42.0);
        QCOMPARE(s.stddev, 0.0);
        QCOMPARE(s.halfWidth, 0.0);
        QVERIFY(!s.noisy);
        QCOMPARE(Statistics::of({}).count, 0);
    }

    void quietPointIsNotNoisy()
    {
        const auto s = Statistics::of({1000, 1010, 990, 1005, 995});
        QVERIFY(s.cv < 0.01);
        QVERIFY(!s.noisy);
        QVERIFY(s.low() < 1000 && s.high() > 1000);
        QVERIFY(Statistics::of({1000, 1010, 990}, 0.005).noisy); // the threshold is the caller's
    }

    // The t quantiles against the published tables, including past 30 degrees of freedom.
    void tQuantiles()
    {
        QCOMPARE(Statistics::t95(1), 12.706);
        QCOMPARE(Statistics::t95(4), 2.776);
        QCOMPARE(Statistics::t95(30), 2.042);
        QVERIFY(qAbs(Statistics::t95(40) - 2.021) < 0.001);
        QVERIFY(qAbs(Statistics::t95(60) - 2.000) < 0.001);
        QVERIFY(qAbs(Statistics::t95(120) - 1.980) < 0.001);
        QVERIFY(qAbs(Statistics::t95(100000) - 1.960) < 0.001);
    }
};

QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
