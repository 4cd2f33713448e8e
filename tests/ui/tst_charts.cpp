#include "runcharts.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

lab::PointResult point(const QString &target, quint64 size, double kib, int repetition)
{
    lab::PointResult p;
    p.target = target;
    p.sizeBytes = size;
    p.repetition = repetition;
    p.load.completed = p.load.ok = 10;
    p.load.elapsedMicros = 1'000'000;
    p.load.bytesRead = quint64(kib * 1024);
    p.startedAtMicros = 1'000'000 * (repetition + 1);
    for (int i = 0; i < 5; ++i) {
        metrics::ProcessSample s;
        s.alive = true;
        s.atMicros = p.startedAtMicros + 100'000 * i;
        s.total = 10 + i + repetition;
        s.fdLimit = 32;
        p.serverSamples.push_back(s);
    }
    return p;
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Repetitions of a point are one point on the line: their mean.
    void throughputAveragesRepetitions()
    {
        ui::ThroughputChart chart;
        chart.clear({4096, 8192});
        chart.addPoint(point(QStringLiteral("a"), 4096, 100, 0));
        chart.addPoint(point(QStringLiteral("a"), 4096, 300, 1));
        chart.addPoint(point(QStringLiteral("a"), 8192, 200, 0));
        auto dnf = point(QStringLiteral("a"), 8192, 0, 1);
        dnf.dnf = true;
        chart.addPoint(dnf);
        QCOMPARE(chart.pointCount(QStringLiteral("a")), 1); // 8K is DNF in one repetition
        QCOMPARE(chart.dnfCount(), 1);
        QCOMPARE(chart.valueAxisTitle(), QStringLiteral("KiB/s"));
    }

    void timelineHasOneSeriesPerTargetAndTheLimit()
    {
        ui::TimelineChart chart;
        chart.resize(800, 500);
        chart.setPoints(
            {point(QStringLiteral("a"), 4096, 1, 0), point(QStringLiteral("b"), 4096, 1, 1)});
        QCOMPARE(chart.seriesCount(), 3); // a, b and the fd limit (32, near the 15 fds)
        QCOMPARE(chart.sampleCount(), 10);
        QVERIFY(!chart.render().isNull());
    }

    void runChartsAreWritten()
    {
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(ui::writeRunCharts({point(QStringLiteral("a"), 4096, 100, 0)}, dir.path(),
                                    &written, &error),
                 qPrintable(error));
        QCOMPARE(written,
                 (QStringList{QStringLiteral("throughput.png"), QStringLiteral("fds.png")}));
        QCOMPARE(QImage(dir.filePath(QStringLiteral("fds.png"))).size(), QSize(1200, 700));
        QVERIFY(!ui::writeRunCharts({}, QStringLiteral("/proc/no-such-dir"), &written, &error));
        QVERIFY2(error.contains(QStringLiteral("/proc/no-such-dir/throughput.png")),
                 qPrintable(error));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
