// SPDX-License-Identifier: Apache-2.0
#include "lab/results/loadlatency.h"
#include "lab/spec/experimentspec.h"

#include <QTest>

using namespace servelab;

namespace {

// A rate point of `target` at `offered` req/s that answered `achieved` per second, every
// request taking `latencyUs`.
lab::PointResult ratePoint(const QString &target, double offered, double achieved,
                           std::int64_t latencyUs, int repetition = 0)
{
    lab::PointResult p;
    p.model = client::LoadModel::Rate;
    p.target = target + u' ' + lab::ExperimentSpec::rateVariant(std::llround(offered));
    p.sizeBytes = 4096;
    p.repetition = repetition;
    p.offeredPerSecond = offered;
    p.load.elapsedMicros = 1'000'000;
    p.load.completed = p.load.ok = std::uint64_t(achieved);
    for (int i = 0; i < 1000; ++i)
        p.load.latency.record(latencyUs);
    return p;
}

} // namespace

class TestLoadLatency : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One curve per target, by offered rate, its repetitions merged; other models left out.
    void curvesByTargetAndRate()
    {
        lab::PointResult closed = ratePoint(QStringLiteral("ab"), 1000, 1000, 100);
        closed.model = client::LoadModel::Closed;
        const auto curves = lab::loadLatencyCurves(
            {ratePoint(QStringLiteral("epoll+copy"), 2000, 2000, 300),
             ratePoint(QStringLiteral("epoll+copy"), 1000, 1000, 200),
             ratePoint(QStringLiteral("epoll+copy"), 1000, 990, 200, 1),
             ratePoint(QStringLiteral("blocking+copy"), 1000, 1000, 500), closed});
        QCOMPARE(curves.size(), 2);
        QCOMPARE(curves[0].target, QStringLiteral("epoll+copy"));
        QCOMPARE(curves[0].points.size(), 2);
        QCOMPARE(curves[0].points[0].offered, 1000.0);
        QCOMPARE(curves[0].points[0].achieved, 995.0); // the repetitions' mean
        QVERIFY(std::abs(curves[0].points[0].p99Ms - 0.2) < 0.01);
        QCOMPARE(curves[0].points[1].offered, 2000.0);
        QCOMPARE(curves[0].saturatedAt, -1);
        QCOMPARE(curves[1].target, QStringLiteral("blocking+copy"));
    }

    // The rule the legend states: the first rate where achieved < 98 % of offered, or the
    // corrected p99 grew more than tenfold from the lowest rate.
    void saturationIsTheFirstRateBreakingTheRule()
    {
        const QString t = QStringLiteral("poller+copy");
        auto byAchieved = lab::loadLatencyCurves({ratePoint(t, 1000, 1000, 100),
                                                  ratePoint(t, 2000, 1970, 120),
                                                  ratePoint(t, 3000, 2900, 150),
                                                  ratePoint(t, 4000, 3000, 900)});
        QCOMPARE(byAchieved.first().saturatedAt, 2); // 2900 < 0.98 × 3000; 1970 is not < 1960
        auto byLatency = lab::loadLatencyCurves({ratePoint(t, 1000, 1000, 100),
                                                 ratePoint(t, 2000, 2000, 900),
                                                 ratePoint(t, 3000, 3000, 1100)});
        QCOMPARE(byLatency.first().saturatedAt, 2); // 1.1 ms > 10 × 0.1 ms; 0.9 ms is not
        QVERIFY(lab::LoadLatencyCurve::rule().contains(QStringLiteral("98 %")));
    }
};

QTEST_GUILESS_MAIN(TestLoadLatency)
#include "tst_loadlatency.moc"
