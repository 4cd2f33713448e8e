// SPDX-License-Identifier: Apache-2.0
#include "remote/clocksync.h"

#include <QTest>

#include <vector>

using servelab::remote::ClockSample;
using servelab::remote::estimateClockOffset;

class TestClockSync : public QObject
{
    Q_OBJECT

private slots:
    void theShortestRoundTripCounts()
    {
        // The agent's clock is an hour ahead. Pings delayed on one leg only skew their own
        // midpoint; the quickest ping's is the estimate, within half its round trip.
        const qint64 hour = 3600LL * 1'000'000'000;
        const std::vector<ClockSample> samples = {
            {1'000'000, 1'000'000 + hour + 900'000, 2'000'000}, // answer slow on the way back
            {5'000'000, 5'000'000 + hour + 50'000, 5'100'000},  // 100 µs round trip
            {9'000'000, 9'000'000 + hour + 10'000, 9'800'000},  // request slow on the way out
        };
        const auto offset = estimateClockOffset(samples);
        QCOMPARE(offset.samples, 3);
        QCOMPARE(offset.roundTripNs, 100'000);
        QCOMPARE(offset.offsetNs, hour);
        QCOMPARE(offset.errorNs, 50'000);
        QCOMPARE(offset.toAgent(7), 7 + hour);
        QCOMPARE(offset.toCoordinator(7 + hour), 7);
    }

    void aClockBehindAndBadSamples()
    {
        const std::vector<ClockSample> samples = {
            {10'000, -5'000'000'000, 9'000}, // received before sent: not a sample
            {10'000, -4'999'980'000, 10'040},
        };
        const auto offset = estimateClockOffset(samples);
        QCOMPARE(offset.samples, 1);
        QCOMPARE(offset.offsetNs, -4'999'980'000 - 10'020);
        QVERIFY(!estimateClockOffset({}).valid());
    }

    void thisHostAgainstItself()
    {
        // Real pings through nothing: the same clock, so the offset is within its bound.
        std::vector<ClockSample> samples;
        for (int i = 0; i < 8; ++i) {
            ClockSample s;
            s.sentNs = servelab::remote::monotonicNanos();
            s.agentNs = servelab::remote::monotonicNanos();
            s.receivedNs = servelab::remote::monotonicNanos();
            samples.push_back(s);
        }
        const auto offset = estimateClockOffset(samples);
        QVERIFY2(std::abs(offset.offsetNs) <= offset.errorNs + 1,
                 qPrintable(QString::number(offset.offsetNs)));
    }
};

QTEST_APPLESS_MAIN(TestClockSync)
#include "tst_clocksync.moc"
