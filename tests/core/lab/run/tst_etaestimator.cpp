// SPDX-License-Identifier: Apache-2.0
#include "lab/run/etaestimator.h"

#include <QTest>

#include <cmath>

using namespace servelab;

namespace {

using Points = QList<std::pair<int, quint64>>;

constexpr quint64 KiB = 1024;
constexpr quint64 MiB = 1024 * KiB;
constexpr double GiB = 1024.0 * 1024 * 1024;

// The default run's shape: 4K, 8K, ... 16M.
QList<quint64> sizes()
{
    QList<quint64> out;
    for (quint64 s = 4 * KiB; s <= 16 * MiB; s *= 2)
        out.append(s);
    return out;
}

// A machine where a point of n requests takes `fixed` ms plus n times its bytes at `bandwidth`
// bytes per second, each target `speed` times as fast at moving bytes.
struct Machine
{
    double fixed = 120;
    quint64 requests = 1000;
    double bandwidth = 1.5 * GiB;
    QList<double> speed{1.0};

    qint64 ms(int target, quint64 size) const
    {
        return qint64(fixed + double(requests) * double(size) * 1000 / (bandwidth * speed[target]));
    }
    Points order() const // target by target, each size in turn
    {
        Points out;
        for (int t = 0; t < speed.size(); ++t)
            for (quint64 s : sizes())
                out.append({t, s});
        return out;
    }
};

// The largest error of the estimate against what was left, over every point of the run.
// `ownPriors`: each target's prior is its own bandwidth (its history from an earlier run).
double worstError(const Machine &m, double prior, double *first = nullptr, bool ownPriors = false)
{
    lab::EtaEstimator eta(m.requests, prior);
    for (int t = 0; ownPriors && t < m.speed.size(); ++t)
        eta.setPrior(t, m.bandwidth * m.speed[t]);
    const Points order = m.order();
    double worst = 0;
    for (qsizetype i = 0; i + 1 < order.size(); ++i) {
        eta.record(order[i].first, order[i].second, m.ms(order[i].first, order[i].second));
        const Points rest = order.mid(i + 1);
        qint64 truth = 0;
        for (const auto &[t, s] : rest)
            truth += m.ms(t, s);
        const double error = std::abs(double(eta.remainingMs(rest)) / double(truth) - 1);
        if (i == 0 && first)
            *first = error;
        worst = std::max(worst, error);
    }
    return worst;
}

} // namespace

class TestEtaEstimator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void nothingMeasuredNothingEstimated()
    {
        lab::EtaEstimator eta;
        QCOMPARE(eta.remainingMs({{0, 4096}}), -1);
        QCOMPARE(eta.remainingMs({}), 0);
    }

    // A point measured before (an earlier repetition) takes what it took the latest time; the
    // fixed part is a target's quickest point (its first also started the server).
    void measuredPointsAreTakenAsTheyWere()
    {
        lab::EtaEstimator eta(1000, GiB);
        eta.record(0, 4096, 100);
        QCOMPARE(eta.remainingMs({{0, 4096}, {0, 4096}}), 200);
        eta.record(0, 4096, 80);
        QCOMPARE(eta.remainingMs({{0, 4096}}), 80);
        eta.record(0, 4 * MiB, 1080); // the bytes show: 1000 ms more than the quickest at 4 MiB
        const double perByte = 1000.0 / double(4 * MiB);
        QCOMPARE(eta.remainingMs({{0, 8 * MiB}}), qint64(80 + perByte * double(8 * MiB)));
        // Another target, not started: the fixed part seen, its bytes at the prior's pace.
        QCOMPARE(eta.remainingMs({{1, 8 * MiB}}), qint64(80 + 1e6 / GiB * double(8 * MiB)));
    }

    // One size measured: its time is the fixed part, the bytes come at the prior's bandwidth.
    void oneSizeUsesThePrior()
    {
        lab::EtaEstimator eta(1000, GiB);
        eta.record(0, 4096, 100);
        const double perByte = 1000 * 1000 / GiB; // ms per byte of the file, 1000 requests
        QCOMPARE(eta.remainingMs({{0, 16 * MiB}}), qint64(100 + perByte * 16 * MiB));
    }

    // With the machine's bandwidth as the prior (what its history gives), the first point's
    // estimate is within 20 %, and so is every later one, with targets up to 15 % apart in how
    // fast they move bytes (a target much faster or slower is estimated at the prior's pace
    // until its own bytes show, from about 256 KiB: then off by that much).
    void rightFromTheFirstPoint()
    {
        Machine m;
        m.speed = {1.0, 0.85, 1.15, 1.05};
        double first = 1;
        const double worst = worstError(m, m.bandwidth, &first);
        QVERIFY2(first <= 0.2, qPrintable(QString::number(first)));
        QVERIFY2(worst <= 0.2, qPrintable(QString::number(worst)));
    }

    // Targets 12 times apart in how fast they move bytes (blocking+copy with 8 KiB reads beside
    // nginx's sendfile at 16M): with the machine's prior alone a target's larger sizes are off
    // until its bytes show; with each target's own history (the run before) every estimate is
    // within 20 %, from the first point.
    void eachTargetsHistoryIsItsPrior()
    {
        Machine m;
        m.speed = {1.0, 6.0, 0.5, 2.0};
        const double withoutOwn = worstError(m, m.bandwidth);
        QVERIFY2(withoutOwn > 0.2, qPrintable(QString::number(withoutOwn))); // what it fixes
        double first = 1;
        const double worst = worstError(m, m.bandwidth, &first, true);
        QVERIFY2(first <= 0.2, qPrintable(QString::number(first)));
        QVERIFY2(worst <= 0.2, qPrintable(QString::number(worst)));
    }

    // A prior 3 times too high or too low (another machine's, or none): a target's own bytes
    // correct it for that target, once they show: its larger sizes are then within 20 %.
    void aWrongPriorIsCorrectedByMeasurement()
    {
        for (const double wrong : {3.0, 1.0 / 3}) {
            Machine m;
            lab::EtaEstimator eta(m.requests, m.bandwidth * wrong);
            const Points order = m.order();
            for (qsizetype i = 0; i + 1 < order.size(); ++i) {
                eta.record(order[i].first, order[i].second, m.ms(order[i].first, order[i].second));
                if (order[i].second < 2 * MiB)
                    continue; // the bytes not seen yet
                const Points rest = order.mid(i + 1);
                const double truth = double(m.ms(0, rest[0].second));
                const double error = std::abs(double(eta.remainingMs(rest.first(1))) / truth - 1);
                QVERIFY2(error <= 0.2, qPrintable(QStringLiteral("prior x%1, after point %2: %3")
                                                      .arg(wrong)
                                                      .arg(i)
                                                      .arg(error)));
            }
        }
    }

    // Duration, rate, ramp: a point lasts as long as the model runs it, whatever the size.
    void timeBoundPointsIgnoreTheSize()
    {
        lab::EtaEstimator eta(0);
        eta.record(0, 4096, 3100);
        eta.record(0, 8192, 3300);
        QCOMPARE(eta.remainingMs({{0, 16 * MiB}, {1, 32 * MiB}}), 2 * 3200);
    }
};

QTEST_GUILESS_MAIN(TestEtaEstimator)
#include "tst_etaestimator.moc"
