// SPDX-License-Identifier: Apache-2.0
#include "lab/results/comparisonreport.h"
#include "lab/results/runcomparison.h"
#include "lab/results/setupdifferences.h"

#include <QJsonObject>

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

// Repetitions of epoll+copy at 4K with these KiB/s.
QList<lab::PointResult> runOf(std::initializer_list<double> kibs)
{
    QList<lab::PointResult> run;
    for (double kib : kibs)
        run << point(QStringLiteral("epoll+copy"), 4096, kib);
    return run;
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

    // Welch's test over the repetitions: a verdict with its interval; fewer than two
    // repetitions is no test; a significant difference under the minimum effect is none.
    void welchVerdicts()
    {
        using Verdict = lab::RunComparison::Verdict;
        const auto row = [](const lab::RunComparison &c) { return c.rows.value(0); };
        auto r =
            row(lab::RunComparison::of(runOf({100, 101, 99, 100}), runOf({100, 99, 101, 100})));
        QCOMPARE(r.verdict, Verdict::NoDifference);
        QVERIFY(r.ratioLow < 1 && r.ratioHigh > 1);
        r = row(lab::RunComparison::of(runOf({60, 61, 59, 60}), runOf({100, 99, 101, 100})));
        QCOMPARE(r.verdict, Verdict::Slower);
        QVERIFY(r.ratioHigh < 0.7 && r.ratioLow > 0.5);
        r = row(lab::RunComparison::of(runOf({140, 141, 139}), runOf({100, 99, 101, 100})));
        QCOMPARE(r.verdict, Verdict::Faster);
        r = row(lab::RunComparison::of(runOf({60}), runOf({100, 99})));
        QCOMPARE(r.verdict, Verdict::Untested);
        // 0.5 % apart with no spread: significant, and under the 1 % minimum.
        r = row(lab::RunComparison::of(runOf({100.5, 100.5}), runOf({100, 100})));
        QCOMPARE(r.verdict, Verdict::NoDifference);
        r = row(lab::RunComparison::of(runOf({100.5, 100.5}), runOf({100, 100}), 0.001));
        QCOMPARE(r.verdict, Verdict::Faster);
        QCOMPARE(QByteArray(lab::RunComparison::verdictName(Verdict::NoDifference)),
                 QByteArray("no significant difference"));
    }

    void machineDifferencesAreListed()
    {
        const QJsonObject a{{QStringLiteral("cores"), 2},
                            {QStringLiteral("sysctls"),
                             QJsonObject{{QStringLiteral("somaxconn"), QStringLiteral("4096")}}}};
        QJsonObject b = a;
        QVERIFY(lab::ComparisonReport::machineDifferences(a, b).isEmpty());
        b.insert(QStringLiteral("cores"), 4);
        b.insert(QStringLiteral("sysctls"),
                 QJsonObject{{QStringLiteral("somaxconn"), QStringLiteral("128")}});
        b.insert(QStringLiteral("cpu_affinity"), QStringLiteral("0"));
        QCOMPARE(lab::ComparisonReport::machineDifferences(a, b),
                 QStringList({QStringLiteral("cores: 2 → 4"),
                              QStringLiteral("cpu_affinity: (not recorded) → 0"),
                              QStringLiteral("sysctls.somaxconn: 4096 → 128")}));
    }

    // What two specs set up differently, defaults filled: a key written in one and defaulted in
    // the other is none, the name is none; a client setting, the sizes, a target's option and a
    // target added or gone are one line each; a spec not kept says so.
    void setupDifferencesAreListed()
    {
        const QByteArray base = R"({"servelab": 1, "name": "a",
 "targets": [{"builtin": "epoll+sendfile"}, {"builtin": "poller+copy", "threads": 2}],
 "sizes": ["4K"], "client": {"concurrency": 4}})";
        const QByteArray sameWithDefaults = R"({"servelab": 1, "name": "another name",
 "targets": [{"builtin": "epoll+sendfile", "threads": 1}, {"builtin": "poller+copy", "threads": 2}],
 "sizes": ["4K"], "repetitions": 1, "client": {"concurrency": 4, "keep_alive": false}})";
        QCOMPARE(lab::SetupDifferences::of(base, sameWithDefaults), QStringList());
        QVERIFY(lab::SetupDifferences::kept(base));

        const QByteArray other = R"({"servelab": 1, "name": "a",
 "targets": [{"builtin": "epoll+sendfile"}, {"builtin": "poller+copy", "threads": 4},
             {"builtin": "epoll+copy"}],
 "sizes": ["4K", "1M"], "client": {"concurrency": 4, "keep_alive": true}})";
        const QStringList lines = lab::SetupDifferences::of(base, other);
        QVERIFY2(lines.contains(QStringLiteral("client.keep_alive: false → true")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY2(lines.contains(QStringLiteral("sizes: 4K → 4K, 1M")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY2(lines.contains(QStringLiteral("targets: + epoll+copy")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY2(lines.contains(QStringLiteral("target poller+copy: threads: 2 → 4")),
                 qPrintable(lines.join(u'\n')));
        QCOMPARE(lines.size(), 4);

        QVERIFY(!lab::SetupDifferences::kept("{}"));
        const QStringList unknown = lab::SetupDifferences::of("{}", base);
        QCOMPARE(unknown.size(), 1);
        QVERIFY2(unknown[0].contains(QStringLiteral("not kept")), qPrintable(unknown[0]));

        // The report says so first, and marks a slower size as the other setup's.
        const lab::RunComparison comparison =
            lab::RunComparison::of(runOf({50, 51, 50}), runOf({100, 101, 100}));
        const lab::ComparisonReport report(comparison, {}, {}, base, other);
        QVERIFY(report.setupsDiffer());
        QVERIFY2(report.text().startsWith(QStringLiteral("setups that differ")),
                 qPrintable(report.text()));
        QVERIFY2(report.text().contains(QStringLiteral("slower (other setup)")),
                 qPrintable(report.text()));
        QVERIFY2(report.regressions(0.05).value(0).startsWith(
                     QStringLiteral("slower with the other setup: ")),
                 qPrintable(report.regressions(0.05).join(u'\n')));
        const lab::ComparisonReport same(comparison, {}, {}, base, sameWithDefaults);
        QVERIFY(!same.setupsDiffer());
        QVERIFY(same.text().startsWith(QStringLiteral("setup: the same experiment")));
        QVERIFY(same.regressions(0.05).value(0).startsWith(QStringLiteral("regression: ")));
    }
};

QTEST_GUILESS_MAIN(TestRunComparison)
#include "tst_runcomparison.moc"
