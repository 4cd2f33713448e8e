// SPDX-License-Identifier: Apache-2.0
#include "chartfile.h"
#include "chartframe.h"
#include "chartview.h"
#include "fdtypeschart.h"
#include "latencychart.h"
#include "loadlatencychart.h"
#include "pointseries.h"
#include "processchart.h"
#include "ratechart.h"
#include "runcharts.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDomDocument>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QScatterSeries>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>

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
        auto dnf = point(QStringLiteral("a"), 8192, 0, 1);
        dnf.dnf = true;
        const QList<lab::PointResult> points{
            point(QStringLiteral("a"), 4096, 100, 0), point(QStringLiteral("a"), 4096, 300, 1),
            point(QStringLiteral("a"), 8192, 200, 0), dnf, point(QStringLiteral("b"), 4096, 50, 0)};
        ui::ThroughputChart chart;
        chart.clear({4096, 8192});
        for (const auto &p : points)
            chart.addPoint(p);
        QCOMPARE(chart.pointCount(QStringLiteral("a")), 1); // 8K is DNF in one repetition
        QCOMPARE(chart.pointCount(QStringLiteral("b")), 1);
        QCOMPARE(chart.dnfCount(), 1);
        QCOMPARE(chart.intervalCount(), 1); // 4K, measured twice: its 95 % interval
        QCOMPARE(chart.valueAxisTitle(), QStringLiteral("KiB/s"));
        // All at once (a stale chart shown again) draws the same as one by one.
        ui::ThroughputChart atOnce;
        atOnce.addPoint(point(QStringLiteral("old"), 65536, 1, 0)); // replaced, not kept
        atOnce.setPoints({4096, 8192}, points);
        QCOMPARE(atOnce.pointCount(QStringLiteral("a")), 1);
        QCOMPARE(atOnce.pointCount(QStringLiteral("b")), 1);
        QCOMPARE(atOnce.pointCount(QStringLiteral("old")), 0);
        QCOMPARE(atOnce.dnfCount(), 1);
        QCOMPARE(atOnce.intervalCount(), 1);
    }

    // Two repetitions apart by 3× make a 95 % interval (t = 12.7) far past the floor of a log
    // axis: drawn to a third and three times the mean, its ends marked, the axis not stretched.
    void wideIntervalsAreClippedAndMarked()
    {
        ui::ThroughputChart chart;
        chart.setPoints({4096, 1 << 20}, {point(QStringLiteral("a"), 4096, 100, 0),
                                          point(QStringLiteral("a"), 4096, 300, 1),
                                          point(QStringLiteral("a"), 1 << 20, 90000, 0),
                                          point(QStringLiteral("a"), 1 << 20, 91000, 1)});
        QCOMPARE(chart.intervalCount(), 2);
        QScatterSeries *marks = nullptr;
        QList<QLineSeries *> bars;
        for (auto *series : chart.view()->chart()->series()) {
            if (series->name().startsWith(QStringLiteral("interval goes on")))
                marks = qobject_cast<QScatterSeries *>(series);
            if (auto *line = qobject_cast<QLineSeries *>(series);
                line && line->count() == 2 && line->at(0).x() == line->at(1).x())
                bars << line;
        }
        QVERIFY(marks);
        QCOMPARE(marks->count(), 2); // both ends of the 4K interval; the 1M one fits
        QCOMPARE(bars.size(), 2);
        QCOMPARE(chart.valueAxisTitle(), QStringLiteral("MiB/s"));
        const double mean = 200.0 / 1024; // MiB/s at 4K
        const auto *axis =
            qobject_cast<QLogValueAxis *>(chart.view()->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        // The axis is as the means make it (0.1 up), not decades lower for the interval.
        QVERIFY2(axis->min() >= 0.1 - 1e-9, qPrintable(QString::number(axis->min())));
        for (const QLineSeries *bar : std::as_const(bars)) {
            if (bar->at(0).x() != 12)
                continue;
            QVERIFY2(qFuzzyCompare(bar->at(0).y(), std::max(axis->min(), mean / 3)),
                     qPrintable(QString::number(bar->at(0).y())));
            QVERIFY2(qFuzzyCompare(bar->at(1).y(), mean * 3),
                     qPrintable(QString::number(bar->at(1).y())));
        }
    }

    // A point's value stays up while the mouse rests on it; elsewhere the view's help shows.
    void aHoveredValueIsNotReplacedByTheHelp()
    {
        ui::ThroughputChart chart;
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QWidget *viewport = chart.view()->viewport();
        const QPoint at(300, 200);
        QToolTip::showText(viewport->mapToGlobal(at), QStringLiteral("<b>a</b><br>KiB/s: 200"),
                           viewport);
        QTRY_VERIFY(QToolTip::isVisible());
        QHelpEvent rest(QEvent::ToolTip, at, viewport->mapToGlobal(at));
        QApplication::sendEvent(viewport, &rest);
        QCOMPARE(QToolTip::text(), QStringLiteral("<b>a</b><br>KiB/s: 200"));
        QToolTip::hideText();
        QTRY_VERIFY(!QToolTip::isVisible());
        QApplication::sendEvent(viewport, &rest);
        QTRY_VERIFY(QToolTip::text().startsWith(QStringLiteral("Drag to zoom")));
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

    // One curve per target and size (smallest and largest), repetitions merged; it reaches as
    // deep a percentile as the requests resolve.
    void latencyByPercentile()
    {
        QList<lab::PointResult> points;
        for (int repetition = 0; repetition < 2; ++repetition) {
            for (quint64 size : {4096ull, 65536ull, 1048576ull}) {
                auto p = point(QStringLiteral("a"), size, 100, repetition);
                for (int i = 1; i <= 500; ++i)
                    p.load.latency.record(i * std::int64_t(size / 4096)); // 1..500 µs × size
                points << p;
            }
        }
        auto dnf = point(QStringLiteral("b"), 4096, 0, 0);
        dnf.dnf = true;
        points << dnf;
        ui::LatencyChart chart;
        chart.resize(800, 500);
        chart.setPoints(points);
        QCOMPARE(chart.seriesCount(), 2);                // a at 4K and at 1M; DNF draws nothing
        QVERIFY2(qAbs(chart.tailReached() - 3.0) < 1e-9, // 1000 requests: 99.9 %
                 qPrintable(QString::number(chart.tailReached())));
        // The row above says what is shown, and the sizes are picked there.
        QVERIFY2(chart.shownText().contains(QStringLiteral("4K and 1M, the smallest and largest "
                                                           "of 3 sizes")),
                 qPrintable(chart.shownText()));
        auto *menu = chart.findChild<QToolButton *>(QStringLiteral("latencySizes"))->menu();
        QCOMPARE(menu->actions().size(), 3);
        QVERIFY(!menu->actions()[1]->isChecked());
        QSignalSpy again(&chart, &ui::RunChart::drawAgain);
        menu->actions()[1]->setChecked(true); // 64K as well
        QCOMPARE(again.size(), 1);
        chart.draw(ui::RunView{points, points, {}, {}});
        QCOMPARE(chart.seriesCount(), 3);
        QCOMPARE(chart.shownText(), QStringLiteral("Showing 4K, 64K, 1M of 3 sizes measured."));
        chart.setPoints(points, {65536});
        QCOMPARE(chart.seriesCount(), 1);
        chart.setPoints({});
        QCOMPARE(chart.seriesCount(), 0);
        QCOMPARE(chart.shownText(), QStringLiteral("No latency measured yet."));
    }

    // Names are never cut short: under the plot while they fit on a row, else beside it.
    void legendNeverCutsANameShort()
    {
        QList<lab::PointResult> points;
        for (int t = 0; t < 8; ++t)
            points << point(QStringLiteral("epoll+sendfile sendfile-threshold=%1K (#12)").arg(t),
                            4096, 100 + t, 0);
        ui::ThroughputChart chart;
        chart.resize(600, 400);
        chart.setPoints({4096}, points);
        chart.fitLegend();
        QLegend *legend = chart.findChild<QChartView *>()->chart()->legend();
        QCOMPARE(legend->alignment(), Qt::AlignRight);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.resize(6000, 400); // a resize fits it again
        QTRY_COMPARE(legend->alignment(), Qt::AlignBottom);
        chart.resize(600, 400);
        QTRY_COMPARE(legend->alignment(), Qt::AlignRight);
    }

    // Rates more than a decade apart go on a log axis by default (the seeds' 4K against 32M);
    // the choice above the chart overrides it; an empty chart shows no numbers.
    void throughputAxisGoesLogPastADecade()
    {
        ui::ThroughputChart chart;
        const auto axis = [&chart] {
            return chart.findChild<QChartView *>()->chart()->axes(Qt::Vertical).first();
        };
        chart.clear({});
        QVERIFY(!chart.logScale());
        QVERIFY(!axis()->labelsVisible()); // no "0 0 1 1" on an empty chart
        chart.setPoints({4096, 1048576}, {point(QStringLiteral("a"), 4096, 50, 0),
                                          point(QStringLiteral("a"), 1048576, 4000, 0)});
        QVERIFY(chart.logScale());
        QCOMPARE(axis()->type(), QAbstractAxis::AxisTypeLogValue);
        QCOMPARE(chart.pointCount(QStringLiteral("a")), 2);
        chart.findChild<QComboBox *>(QStringLiteral("throughputScale"))->setCurrentIndex(1);
        QVERIFY(!chart.logScale());
        QCOMPARE(axis()->type(), QAbstractAxis::AxisTypeValue);
        QVERIFY(axis()->labelsVisible());
        chart.setScale(ui::ThroughputChart::Scale::Auto);
        chart.setPoints({4096, 8192}, {point(QStringLiteral("a"), 4096, 50, 0),
                                       point(QStringLiteral("a"), 8192, 90, 0)});
        QVERIFY(!chart.logScale()); // within a decade: linear
        chart.setScale(ui::ThroughputChart::Scale::Log);
        QVERIFY(chart.logScale());
        QCOMPARE(chart.pointCount(QStringLiteral("a")), 2);
    }

    // req/s from the client's samples, on the run's clock; a lone sample still shows.
    void rateOverTime()
    {
        auto a = point(QStringLiteral("a"), 4096, 100, 0);
        for (int i = 1; i <= 4; ++i) {
            client::ClientSample s;
            s.endMicros = 100'000 * i;
            s.intervalMicros = 100'000;
            s.completed = 100 * i;
            s.bytesRead = s.completed * 4096;
            a.clientSamples.push_back(s);
        }
        auto b = point(QStringLiteral("b"), 4096, 100, 1);
        client::ClientSample lone;
        lone.endMicros = lone.intervalMicros = 50'000;
        lone.completed = 10;
        b.clientSamples.push_back(lone);
        ui::RateChart chart;
        chart.setPoints({a, b});
        QCOMPARE(chart.seriesCount(), 2);
        QCOMPARE(chart.sampleCount(), 5);
        auto *first = qobject_cast<QLineSeries *>(chart.view()->chart()->series().first());
        QVERIFY(first);
        QCOMPARE(first->at(3), QPointF(0.4, 4000.0)); // 400 requests in 0.1 s, 0.4 s in
        auto *second = qobject_cast<QLineSeries *>(chart.view()->chart()->series().last());
        QCOMPARE(second->at(0), QPointF(1.05, 200.0)); // b began 1 s after a
        QVERIFY(second->pointsVisible());
        // The same samples as KiB/s, chosen above the chart: the owner is told to draw again.
        QSignalSpy changed(&chart, &ui::RateChart::drawAgain);
        auto *choice = chart.findChild<QComboBox *>();
        QVERIFY(choice);
        choice->setCurrentIndex(1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(chart.measure(), ui::RateChart::Measure::Kib);
        QCOMPARE(chart.valueTitle(), QStringLiteral("KiB/s (100 ms intervals)"));
        chart.setPoints({a});
        first = qobject_cast<QLineSeries *>(chart.view()->chart()->series().first());
        QCOMPARE(first->at(3), QPointF(0.4, 16000.0)); // 400 × 4 KiB in 0.1 s
    }

    // A run across machines: the load hosts merged by default; "each load agent" draws a line
    // per agent from its own samples, named after the target and the agent, on the same clock.
    void rateOfEachLoadAgent()
    {
        auto p = point(QStringLiteral("epoll+copy"), 4096, 100, 0);
        for (int k = 0; k < 2; ++k) {
            lab::AgentLane lane;
            lane.agent = QStringLiteral("load agent %1 (h%1)").arg(k + 1);
            for (int i = 1; i <= 3; ++i) {
                client::ClientSample s;
                s.endMicros = 100'000 * i;
                s.intervalMicros = 100'000;
                s.completed = 10 * (k + 1);
                lane.samples.push_back(s);
                if (k == 0) {
                    s.completed = 30; // the merged sample: both agents' 10 and 20
                    p.clientSamples.push_back(s);
                }
            }
            p.agents.push_back(lane);
        }
        ui::RunView run;
        run.points = run.overlaid = {p};
        ui::RateChart chart;
        auto *agents = chart.findChild<QComboBox *>(QStringLiteral("rateAgents"));
        QVERIFY(agents);
        chart.draw(run);
        QVERIFY(!agents->isHidden());
        QCOMPARE(chart.seriesCount(), 1);
        auto *merged = qobject_cast<QLineSeries *>(chart.view()->chart()->series().first());
        QCOMPARE(merged->at(0), QPointF(0.1, 300.0));
        QSignalSpy changed(&chart, &ui::RateChart::drawAgain);
        agents->setCurrentIndex(1);
        QCOMPARE(changed.size(), 1);
        QVERIFY(chart.eachAgent());
        chart.draw(run);
        QCOMPARE(chart.seriesCount(), 2);
        QStringList names;
        for (QAbstractSeries *series : chart.view()->chart()->series())
            names << series->name();
        QVERIFY2(names.contains(QStringLiteral("epoll+copy · load agent 2 (h2)")),
                 qPrintable(names.join(u'|')));
        auto *second = qobject_cast<QLineSeries *>(chart.view()->chart()->series().last());
        QCOMPARE(second->at(0), QPointF(0.1, 200.0));
        // A run on one machine hides the choice.
        run.points = run.overlaid = {point(QStringLiteral("a"), 4096, 100, 0)};
        chart.draw(run);
        QVERIFY(agents->isHidden());
    }

    // The point being measured: one line replaced in place as it grows, decimated with its
    // spikes kept, and gone when the finished points are drawn.
    void liveLineGrowsInPlace()
    {
        ui::TimelineChart chart;
        chart.setPoints({point(QStringLiteral("a"), 4096, 1, 0)});
        QCOMPARE(chart.seriesCount(), 2); // a and the fd limit
        QList<QPointF> live;
        for (int i = 0; i < 10; ++i)
            live.append({2e6 + 1e5 * i, 20.0});
        chart.setLive(QStringLiteral("b"), live);
        QCOMPARE(chart.seriesCount(), 3);
        QCOMPARE(chart.liveCount(), 10);
        for (int i = 10; i < 6000; ++i)
            live.append({2e6 + 1e5 * i, i == 4321 ? 900.0 : 20.0});
        chart.setLive(QStringLiteral("b"), live);
        QCOMPARE(chart.seriesCount(), 3); // the same line
        QVERIFY(chart.liveCount() <= ui::TimelineChart::liveLimit);
        auto *line = qobject_cast<QLineSeries *>(chart.view()->chart()->series().last());
        bool spike = false;
        for (const QPointF &p : line->points())
            spike = spike || p.y() == 900.0;
        QVERIFY(spike);
        chart.setPoints(
            {point(QStringLiteral("a"), 4096, 1, 0), point(QStringLiteral("b"), 4096, 1, 1)});
        QCOMPARE(chart.liveCount(), 0);
        QCOMPARE(chart.seriesCount(), 3);

        ui::RateChart rate;
        rate.setLive(QStringLiteral("a"), {{1e6, 100}, {1.1e6, 300}});
        QCOMPARE(rate.liveCount(), 2);
        auto *first = qobject_cast<QLineSeries *>(rate.view()->chart()->series().first());
        QCOMPARE(first->at(1), QPointF(0.1, 300)); // seconds from the first sample
    }

    // A finished point added to what is drawn is the same as drawing them all again; its live
    // line gives way to it.
    void addingAPointEqualsRedrawing()
    {
        const auto a = point(QStringLiteral("a"), 4096, 1, 0);
        const auto b = point(QStringLiteral("b"), 4096, 1, 1);
        ui::TimelineChart all;
        all.setPoints({a, b});
        ui::TimelineChart grown;
        grown.setPoints({a});
        grown.setLive(QStringLiteral("b"), {{2e6, 11}, {2.1e6, 12}});
        QCOMPARE(grown.liveCount(), 2);
        grown.addPoint(b);
        QCOMPARE(grown.liveCount(), 0);
        // b's legend entry went with its live line and came back with its finished point.
        grown.show();
        int legendB = 0;
        for (auto *series : grown.view()->chart()->series())
            if (series->name() == QStringLiteral("b"))
                for (auto *marker : grown.view()->chart()->legend()->markers(series))
                    legendB += marker->isVisible() ? 1 : 0;
        QCOMPARE(legendB, 1);
        QCOMPARE(grown.seriesCount(), all.seriesCount());
        QCOMPARE(grown.sampleCount(), all.sampleCount());
        QCOMPARE(grown.targetCount(), all.targetCount());

        auto withSamples = [](lab::PointResult p) {
            for (int i = 1; i <= 3; ++i) {
                client::ClientSample s;
                s.endMicros = s.intervalMicros = 100'000 * i;
                s.intervalMicros = 100'000;
                s.completed = 10;
                p.clientSamples.push_back(s);
            }
            return p;
        };
        ui::RateChart rateAll;
        rateAll.setPoints({withSamples(a), withSamples(b)});
        ui::RateChart rateGrown;
        rateGrown.setPoints({withSamples(a)});
        rateGrown.addPoint(withSamples(b));
        QCOMPARE(rateGrown.seriesCount(), rateAll.seriesCount());
        QCOMPARE(rateGrown.sampleCount(), rateAll.sampleCount());
    }

    // By type, stacked: the top is the exact total; samples without types carry the last
    // split; each point's start is marked, and EMFILE where the server met it.
    void fdsByType()
    {
        auto a = point(QStringLiteral("a"), 4096, 1, 0); // totals 10..14, limit 32
        for (std::size_t i = 0; i < a.serverSamples.size(); ++i) {
            auto &s = a.serverSamples[i];
            s.byType = i < 2; // then the types are not read
            s.sockets = s.byType ? s.total - 4 : 0;
            s.files = s.byType ? 2 : 0;
            s.anonInodes = s.byType ? 2 : 0;
        }
        auto b = point(QStringLiteral("b"), 4096, 1, 1);
        b.server.acceptEmfile = 7;
        ui::FdTypesChart chart;
        chart.setPoints({a, b});
        QCOMPARE(chart.sampleCount(), 10);
        for (int i = 0; i < 10; ++i) // a's 5 samples, then b's
            QVERIFY2(qAbs(chart.stackTopAt(i) - double(10 + i % 5 + i / 5)) < 1e-9,
                     qPrintable(QStringLiteral("sample %1: %2").arg(i).arg(chart.stackTopAt(i))));
        QCOMPARE(chart.pointMarkers(), 2);
        QCOMPARE(chart.emfileMarkers(), 1);
        ui::FdTypesChart grown; // point by point, as during a run: the same drawing
        grown.setPoints({a});
        grown.addPoint(b);
        QCOMPARE(grown.sampleCount(), 10);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(grown.stackTopAt(i), chart.stackTopAt(i));
        QCOMPARE(grown.emfileMarkers(), 1);
        // Sample 3 had no types: the split of sample 1 (7 sockets of 11) scaled to its 13.
        QVERIFY(qAbs(chart.layerTopAt(0, 3) - 7.0 * 13 / 11) < 1e-9);
        auto *sockets = qobject_cast<QAreaSeries *>(chart.view()->chart()->series().first());
        QVERIFY(sockets && sockets->upperSeries()->count() == 10);
        // A long run draws every k-th sample, the same ones in every layer.
        QList<lab::PointResult> many;
        for (int i = 0; i < 40; ++i) {
            auto p = point(QStringLiteral("a"), 4096, 1, i);
            p.serverSamples.resize(100, p.serverSamples.back());
            for (std::size_t j = 0; j < p.serverSamples.size(); ++j)
                p.serverSamples[j].atMicros = p.startedAtMicros + std::int64_t(j) * 10'000;
            many << p;
        }
        chart.setPoints(many);
        QCOMPARE(chart.sampleCount(), 4000);
        QVERIFY(chart.drawnCount() <= ui::FdTypesChart::drawLimit);
    }

    // A point that left descriptors open: a marker at its last sample naming them.
    void leakedFdsAreMarked()
    {
        auto clean = point(QStringLiteral("a"), 4096, 1, 0);
        auto leaky = point(QStringLiteral("a"), 8192, 1, 1); // totals 11..15
        for (int fd = 20; fd < 35; ++fd)
            leaky.fdsLeftOpen << QStringLiteral("fd %1 file /root/<8K>.bin").arg(fd);
        ui::FdTypesChart chart;
        chart.setPoints({clean, leaky});
        QCOMPARE(chart.leakMarkers(), 1);
        const QString text = chart.leakText(0);
        QVERIFY2(text.contains(QStringLiteral("15 descriptors left open")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("fd 20 file /root/&lt;8K&gt;.bin"))); // escaped
        QVERIFY(text.contains(QStringLiteral("… and 3 more")));                    // 12 listed
        QVERIFY(!text.contains(QStringLiteral("fd 34")));
        QVERIFY(!text.contains(QStringLiteral("open-file cache")));
        // Where: the leaky point's last sample (1.4 s after the first), at its total.
        QScatterSeries *marks = nullptr;
        for (auto *series : chart.view()->chart()->series())
            if (series->name() == QStringLiteral("left open"))
                marks = qobject_cast<QScatterSeries *>(series);
        QVERIFY(marks && marks->count() == 1);
        QCOMPARE(marks->at(0), QPointF(1.4, 15));
        leaky.reason = QStringLiteral("the open-file cache keeps 15 more files open (fd 20 …)");
        chart.addPoint(leaky);
        QCOMPARE(chart.leakMarkers(), 2);
        QVERIFY(chart.leakText(1).contains(QStringLiteral("kept by the open-file cache")));
    }

    // Every target its own look: twelve hues, then the hues again with another dash; an overlaid
    // run's line in its target's colour, dashed.
    void targetsLookApart()
    {
        QSet<QPair<QRgb, int>> looks;
        for (int i = 0; i < 36; ++i) {
            const QPen pen = ui::targetPen(i, false);
            looks.insert({pen.color().rgb(), int(pen.style())});
            QVERIFY(pen.color() != QColor(200, 30, 30)); // the DNF and EMFILE red
        }
        QCOMPARE(looks.size(), 36);
        QVERIFY(ui::targetPen(0, true).color().lightness() >
                ui::targetPen(0, false).color().lightness()); // brighter on the dark theme

        ui::TimelineChart chart;
        QList<lab::PointResult> points;
        for (int t = 0; t < 8; ++t)
            points << point(QStringLiteral("t%1").arg(t), 4096, 1, t);
        points << point(ui::overlayName(QStringLiteral("t2"), 12), 4096, 1, 0);
        chart.setPoints(points);
        QHash<QString, QPen> pens;
        for (auto *series : chart.view()->chart()->series())
            if (auto *line = qobject_cast<QLineSeries *>(series); line && !line->name().isEmpty())
                pens.insert(line->name(), line->pen());
        QSet<QPair<QRgb, int>> drawn;
        for (int t = 0; t < 8; ++t) {
            const QPen pen = pens.value(QStringLiteral("t%1").arg(t));
            drawn.insert({pen.color().rgb(), int(pen.style())});
        }
        QCOMPARE(drawn.size(), 8); // Qt's own theme repeats after five
        const QPen overlay = pens.value(QStringLiteral("t2 (#12)"));
        QCOMPARE(overlay.color(), pens.value(QStringLiteral("t2")).color());
        QCOMPARE(overlay.style(), Qt::DashLine);
        QCOMPARE(ui::overlaidTarget(QStringLiteral("t2 (#12)")), QStringLiteral("t2"));
        QCOMPARE(ui::overlaidTarget(QStringLiteral("t2")), QString());
        QCOMPARE(ui::withDetail(QStringLiteral("t2 (#12)"), QStringLiteral("4K")),
                 QStringLiteral("t2, 4K (#12)"));
    }

    // Zoom and pan hold the view while points arrive; going back fits everything drawn.
    void zoomAndPanHoldTheView()
    {
        ui::TimelineChart chart;
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints({point(QStringLiteral("a"), 4096, 1, 0)}); // 0 .. 0.4 s, on a 1 s axis
        auto *view = static_cast<ui::ChartView *>(chart.view());
        auto *time = qobject_cast<QValueAxis *>(view->chart()->axes(Qt::Horizontal).first());
        QVERIFY(time);
        QCOMPARE(time->max(), 1.0);
        QVERIFY(!view->isHeld());
        view->zoomBy(2, view->chart()->plotArea().center());
        QVERIFY(view->isHeld());
        const double zoomedMin = time->min();
        const double zoomedMax = time->max();
        QVERIFY2(qAbs(zoomedMax - zoomedMin - 0.5) < 0.01,
                 qPrintable(QString::number(zoomedMax - zoomedMin)));
        view->panBy({-100, 0}); // the content moves left: later seconds come into sight
        QVERIFY(time->min() > zoomedMin);
        const double heldMin = time->min();
        const double heldMax = time->max();
        chart.addPoint(point(QStringLiteral("a"), 4096, 1, 3)); // 4.0 .. 4.4 s
        QCOMPARE(time->min(), heldMin);
        QCOMPARE(time->max(), heldMax);
        QSignalSpy released(view, &ui::ChartView::released);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {},
                           view->chart()->plotArea().center().toPoint());
        QCOMPARE(released.size(), 1);
        QVERIFY(!view->isHeld());
        QCOMPARE(time->min(), 0.0);
        QVERIFY2(time->max() >= 3.4 && time->max() <= 4.0, // fitted to both points, nicely
                 qPrintable(QString::number(time->max())));
        // The wheel zooms too, and the keys pan.
        QWheelEvent wheel(view->chart()->plotArea().center(), view->mapToGlobal(QPoint(400, 250)),
                          {}, {0, 120}, Qt::NoButton, {}, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(view->isHeld());
        QVERIFY(time->max() - time->min() < 3.4);
        const double before = time->min();
        QTest::keyClick(view, Qt::Key_Right);
        QVERIFY(time->min() > before);
        QTest::keyClick(view, Qt::Key_Home);
        QVERIFY(!view->isHeld());
    }

    // Hovering a line names the target, the value and where, by the axes' titles.
    void hoverNamesTheValue()
    {
        QValueAxis time;
        time.setTitleText(QStringLiteral("Seconds since the first point"));
        QValueAxis fds;
        fds.setTitleText(QStringLiteral("Open fds"));
        QCOMPARE(ui::hoverText(QStringLiteral("epoll+copy"), &time, &fds, {2.5, 1019}),
                 QStringLiteral("<b>epoll+copy</b><br>Open fds: 1019<br>Seconds since the first "
                                "point: 2.5 s"));
        QCategoryAxis nines;
        nines.setTitleText(QStringLiteral("Percentile"));
        QValueAxis ms;
        ms.setTitleText(QStringLiteral("Latency (ms)"));
        QVERIFY(ui::hoverText(QStringLiteral("a"), &nines, &ms, {2, 1.5})
                    .endsWith(QStringLiteral("Latency (ms): 1.50<br>Percentile: 99.000 %")));
    }

    // Threads, CPU and memory of the server over the run, CPU from consecutive samples.
    void processOverTime()
    {
        auto p = point(QStringLiteral("a"), 4096, 1, 0); // 5 samples, 100 ms apart
        for (std::size_t i = 0; i < p.serverSamples.size(); ++i) {
            p.serverSamples[i].threads = 3 + int(i);
            p.serverSamples[i].rssBytes = 64 << 20;
            p.serverSamples[i].userSeconds = 0.05 * double(i); // half a core
        }
        ui::ProcessChart chart;
        chart.setPoints({p});
        QCOMPARE(chart.sampleCount(), 5);
        QVERIFY2(qAbs(chart.peakCpuPercent() - 50.0) < 0.01,
                 qPrintable(QString::number(chart.peakCpuPercent())));
        // One process: no processes series. Several (a prefork tree): shown, in the legend.
        chart.show(); // markers are visible only in a shown chart
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QVERIFY(!chart.showsProcesses());
        p.serverSamples[2].processes = 6;
        chart.setPoints({p});
        QVERIFY(chart.showsProcesses());
        const auto markers = chart.view()->chart()->legend()->markers();
        QVERIFY(std::any_of(markers.begin(), markers.end(), [](QLegendMarker *m) {
            return m->label() == QStringLiteral("processes") && m->isVisible();
        }));
    }

    // Live tuning: each change made is a line on the timelines at its time, named once in the
    // legend; a refused one is not drawn.
    // A change tuned in during a point is marked on the live line at once, and once only when
    // the point's result brings it again.
    void aLiveTuneIsMarkedAtOnce()
    {
        auto p = point(QStringLiteral("a"), 4096, 1, 0);
        ui::TimelineChart chart;
        chart.setPoints({});
        ui::LivePoint live;
        live.target = QStringLiteral("a");
        live.startedAtMicros = p.startedAtMicros;
        live.fds = {{double(p.startedAtMicros), 10}, {double(p.startedAtMicros + 300'000), 12}};
        live.tunes = {{p.startedAtMicros + 200'000, QStringLiteral("threads=8"), {}},
                      {p.startedAtMicros + 250'000, QStringLiteral("backlog=9"),
                       QStringLiteral("backlog cannot change")}};
        chart.drawLive(live);
        QCOMPARE(chart.tuneCount(), 1); // the refused one changed nothing
        p.tuneEvents = live.tunes;
        chart.addPoint(p);
        QCOMPARE(chart.tuneCount(), 1);
    }

    // Latency against load ends its rate axes at round numbers near the data (40,000 here, not
    // Qt's 60,000), and an empty chart shows no numbers (no "0 1 1 2").
    void loadAxesEndNearTheData()
    {
        QList<lab::PointResult> points;
        for (int rate : {10000, 20000, 30000, 40000}) {
            auto p = point(QStringLiteral("a R=%1").arg(rate), 4096, 1, 0);
            p.model = client::LoadModel::Rate;
            p.offeredPerSecond = rate;
            p.load.completed = p.load.ok = quint64(rate);
            for (int i = 0; i < 100; ++i)
                p.load.latency.record(200 + i);
            points << p;
        }
        ui::LoadLatencyChart chart;
        chart.draw(ui::RunView{points, points, {4096}, {}});
        QList<QValueAxis *> rates;
        for (QAbstractAxis *axis : chart.view()->chart()->axes())
            if (auto *values = qobject_cast<QValueAxis *>(axis))
                rates << values;
        QCOMPARE(rates.size(), 2); // offered below, achieved on the right
        for (const QValueAxis *axis : std::as_const(rates)) {
            QCOMPARE(axis->max(), 40000.0);
            QVERIFY(axis->labelsVisible());
        }
        ui::LoadLatencyChart empty;
        empty.draw(ui::RunView{});
        for (QAbstractAxis *axis : empty.view()->chart()->axes())
            QVERIFY(!axis->labelsVisible());
    }

    void tuneChangesAreMarked()
    {
        auto p = point(QStringLiteral("a"), 4096, 1, 0);
        p.tuneEvents = {{p.startedAtMicros + 200'000, QStringLiteral("threads=8"), {}},
                        {p.startedAtMicros + 300'000, QStringLiteral("backlog=9"),
                         QStringLiteral("backlog cannot change")},
                        {p.startedAtMicros + 400'000, QStringLiteral("chunk=64K"), {}}};
        ui::TimelineChart chart;
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setPoints({p});
        QCOMPARE(chart.tuneCount(), 2);
        const auto markers = chart.view()->chart()->legend()->markers();
        const auto tuned = std::count_if(markers.begin(), markers.end(), [](QLegendMarker *m) {
            return m->label().startsWith(QStringLiteral("tuned: "));
        });
        QCOMPARE(tuned, 1);               // one legend entry names them all
        QCOMPARE(chart.seriesCount(), 4); // a, the fd limit and a line per change made
        QVERIFY(std::any_of(markers.begin(), markers.end(), [](QLegendMarker *m) {
            return m->label() == QStringLiteral("tuned: threads=8 at 0.2 s; chunk=64K at 0.4 s");
        }));
        chart.setPoints({point(QStringLiteral("a"), 4096, 1, 0)}); // gone with the point
        QCOMPARE(chart.tuneCount(), 0);
        ui::FdTypesChart types; // and the other timelines
        types.setPoints({p});
        QCOMPARE(types.tuneCount(), 2);
        ui::ProcessChart process;
        process.setPoints({p});
        QCOMPARE(process.tuneCount(), 2);
    }

    // PNG at 2×: twice the pixels, for High-DPI screens.
    void pngAtScale()
    {
        QTemporaryDir dir;
        ui::RateChart chart;
        chart.view()->resize(640, 400);
        QString error;
        const QString path = dir.filePath(QStringLiteral("rate.png"));
        QVERIFY2(ui::chartfile::writePng(chart.view(), path, &error, 2), qPrintable(error));
        QCOMPARE(QImage(path).size(), QSize(1280, 800));
        QVERIFY(!ui::chartfile::writeSvg(chart.view(), QStringLiteral("/proc/x/rate.svg"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("cannot write /proc/x/rate.svg: ")),
                 qPrintable(error));
    }

    void runChartsAreWritten()
    {
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(ui::writeRunCharts({point(QStringLiteral("a"), 4096, 100, 0)}, dir.path(),
                                    &written, &error),
                 qPrintable(error));
        QStringList expected;
        for (const char *chart : {"throughput", "fds", "fd-types", "latency", "rate", "process"})
            expected << QLatin1String(chart) + QStringLiteral(".png")
                     << QLatin1String(chart) + QStringLiteral(".svg");
        QCOMPARE(written, expected);
        for (const QString &name : written) {
            if (name.endsWith(QStringLiteral(".png"))) {
                QCOMPARE(QImage(dir.filePath(name)).size(), QSize(1200, 700));
                continue;
            }
            // SVG: an XML document of the chart's size, titled, with its drawing in vectors.
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QDomDocument svg;
            QVERIFY2(svg.setContent(&file), qPrintable(name));
            const QDomElement root = svg.documentElement();
            QCOMPARE(root.tagName(), QStringLiteral("svg"));
            QCOMPARE(root.attribute(QStringLiteral("viewBox")), QStringLiteral("0 0 1200 700"));
            QVERIFY(!root.firstChildElement(QStringLiteral("title")).text().isEmpty());
            QVERIFY(svg.elementsByTagName(QStringLiteral("polyline")).size() +
                        svg.elementsByTagName(QStringLiteral("path")).size() >
                    10);
        }
        QVERIFY(!ui::writeRunCharts({}, QStringLiteral("/proc/no-such-dir"), &written, &error));
        QVERIFY2(error.contains(QStringLiteral("/proc/no-such-dir/throughput.png")),
                 qPrintable(error));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
