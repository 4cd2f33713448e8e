// SPDX-License-Identifier: Apache-2.0
#include "lab/results/runcomparison.h"

#include <QTest>

using namespace servelab;

namespace {

lab::PointResult point(const QString &target, quint64 size, double kib, bool dnf = false)
{
    lab::PointResult p;
    p.target = target;
    p.sizeBytes = size;
    p.dnf = dnf;
    p.load.completed = p.load.ok = 10;
    p.load.elapsedMicros = 1'000'000;
    p.load.bytesRead = quint64(kib * 1024);
    return p;
}

} // namespace

class TestRunComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Repetitions averaged on each side; a DNF on either side has no ratio; what only one run
    // measured is left out.
    void ratiosAtEachSize()
    {
        const QList<lab::PointResult> now{
            point(QStringLiteral("b"), 4096, 300), point(QStringLiteral("b"), 4096, 500),
            point(QStringLiteral("b"), 8192, 0, true), point(QStringLiteral("a"), 4096, 100),
            point(QStringLiteral("a"), 65536, 100)};
        const QList<lab::PointResult> before{point(QStringLiteral("b"), 4096, 200),
                                             point(QStringLiteral("b"), 8192, 50),
                                             point(QStringLiteral("a"), 4096, 400)};
        const auto c = lab::RunComparison::of(now, before);
        QCOMPARE(c.rows.size(), 3);
        QCOMPARE(c.rows[0].target, QStringLiteral("b")); // this run's order
        QCOMPARE(c.rows[0].sizeBytes, 4096u);
        QCOMPARE(c.rows[0].kibThis, 400.0);
        QCOMPARE(c.rows[0].ratio(), 2.0);
        QVERIFY(c.rows[1].dnf);
        QCOMPARE(c.rows[1].ratio(), 0.0);
        QCOMPARE(c.rows[2].target, QStringLiteral("a"));
        QCOMPARE(c.rows[2].ratio(), 0.25);
        const QString tsv = c.toTsv();
        QVERIFY(tsv.startsWith(QStringLiteral("Target\tFile Size\t")));
        QVERIFY(tsv.contains(QStringLiteral("b\t4K\t400.00\t200.00\t2.000\tno\n")));
        QVERIFY(tsv.contains(QStringLiteral("b\t8K\tDNF\t50.00\t-\tno\n")));
        QVERIFY(!c.rows[0].withinNoise); // one repetition on the other side: no interval
    }

    // Both sides repeated: a ratio is within the noise when their 95 % intervals overlap.
    void ratiosWithinTheNoiseAreMarked()
    {
        const auto runOf = [](std::initializer_list<double> kibs) {
            QList<lab::PointResult> run;
            for (double kib : kibs)
                run << point(QStringLiteral("a"), 4096, kib);
            return run;
        };
        const auto noisy = lab::RunComparison::of(runOf({100, 140, 120}), runOf({110, 130, 125}));
        QVERIFY(noisy.rows[0].withinNoise);
        const auto apart = lab::RunComparison::of(runOf({100, 100, 100}), runOf({200, 200, 200}));
        QVERIFY(!apart.rows[0].withinNoise);
        QCOMPARE(apart.rows[0].ratio(), 0.5);
    }
};

QTEST_GUILESS_MAIN(TestRunComparison)
#include "tst_runcomparison.moc"
