// SPDX-License-Identifier: Apache-2.0
#include "costchart.h"
#include "lab/results/bottleneck.h"
#include "lab/results/pointcost.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QTest>

using namespace servelab;

namespace {

lab::PointResult point(const QString &target, quint64 size, std::int64_t serverCpu,
                       std::int64_t clientCpu, int repetition = 0)
{
    lab::PointResult p;
    p.target = target;
    p.sizeBytes = size;
    p.repetition = repetition;
    p.load.completed = p.load.ok = 100;
    p.load.elapsedMicros = 1'000'000;
    p.load.bytesRead = 100 * size;
    p.serverUse.userMicros = serverCpu / 2;
    p.serverUse.systemMicros = serverCpu - serverCpu / 2;
    p.load.clientUse.userMicros = clientCpu;
    p.load.clientUse.systemMicros = 0;
    return p;
}

} // namespace

// The cost chart: a line per target, the repetitions' mean at each size, the figure chosen from
// PointCost's rows, client-bound points ringed, DNF points and figures not read left out.
class TestCostChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsMeansPerTargetAndSize()
    {
        QList<lab::PointResult> points = {
            point(QStringLiteral("epoll+copy"), 4096, 2'000, 1'000),
            point(QStringLiteral("epoll+copy"), 4096, 4'000, 1'000, 1), // mean 30 µs/req
            point(QStringLiteral("epoll+copy"), 1 << 20, 50'000, 9'000),
            point(QStringLiteral("epoll+sendfile"), 4096, 1'000, 1'000),
        };
        lab::PointResult dnf = point(QStringLiteral("epoll+sendfile"), 1 << 20, 9'000, 9'000);
        dnf.dnf = true;
        points << dnf;
        points[3].verdict =
            QString::fromLatin1(lab::Bottleneck::row(lab::Bottleneck::Kind::ClientBound).name);
        ui::CostChart chart;
        chart.draw({points, points, {4096, 1 << 20}, {}});
        QCOMPARE(chart.drawnCount(), 3); // copy at 4K and 1M, sendfile at 4K; the DNF left out
        QCOMPARE(chart.clientBoundCount(), 1);
        int lines = 0;
        for (auto *s : chart.view()->chart()->series())
            if (auto *line = qobject_cast<QLineSeries *>(s);
                line && !line->name().isEmpty() &&
                line->metaObject() == &QLineSeries::staticMetaObject)
                ++lines;
        QCOMPARE(lines, 2); // one per target
        const QString csv = chart.dataCsv({points, points, {}, {}});
        QVERIFY2(csv.startsWith(QStringLiteral("target,size_bytes,server_cpu_us_per_req,")),
                 qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("\"epoll+copy\",4096,30.0,2,0")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("\"epoll+sendfile\",4096,10.0,1,1")), qPrintable(csv));

        // The client's CPU instead: the chosen row's figures.
        auto *choice = chart.findChild<QComboBox *>(QStringLiteral("costFigure"));
        QVERIFY(choice);
        QCOMPARE(choice->count(), int(lab::PointCost::rows().size()));
        const int client = choice->findText(QString::fromUtf8(lab::PointCost::clientCpu().label));
        QVERIFY(client > 0);
        chart.setFigure(client);
        QVERIFY(chart.dataCsv({points, points, {}, {}})
                    .contains(QStringLiteral("\"epoll+copy\",1048576,90.0,1,0")));
    }

    // Points with no cost read (kept before costs were, a url target with no pid) draw nothing,
    // so `run --out` leaves the chart out.
    void pointsWithoutCostsLeaveItEmpty()
    {
        lab::PointResult p = point(QStringLiteral("url"), 4096, 0, 0);
        p.serverUse = {};
        p.load.clientUse = {};
        ui::CostChart chart;
        chart.draw({{p}, {p}, {4096}, {}});
        QVERIFY(chart.isEmpty());
    }
};

QTEST_MAIN(TestCostChart)
#include "tst_costchart.moc"
