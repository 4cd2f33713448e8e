// SPDX-License-Identifier: Apache-2.0
#include "chartrow.h"
#include "runchart.h"
#include "runcharts.h"

#include <QChart>
#include <QChartView>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace servelab;

// The chart rows: each makes its chart, the names and pages agree with what the readers use,
// and a chart drawn from a run gives its numbers.
class TestChartRow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAndPages()
    {
        const QStringList names = ui::chartNames();
        QCOMPARE(qsizetype(ui::chartRows().size()), names.size());
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
        QCOMPARE(ui::chartIndex(QStringLiteral("no-such-chart")), -1);
        QVERIFY(ui::chartPage(QStringLiteral("no-such-chart")).isEmpty());
        for (int i = 0; i < names.size(); ++i) {
            QCOMPARE(ui::chartIndex(names[i]), i);
            const QString page = ui::chartPage(names[i]);
            QVERIFY2(ui::chartPages().contains(page), qPrintable(names[i]));
            QVERIFY2(!ui::chartPageTitle(page).isEmpty(), qPrintable(page));
        }
        // A page is named after its first chart (the window's tab names are chart names).
        for (const QString &page : ui::chartPages())
            QVERIFY2(names.contains(page), qPrintable(page));
        int tables = 0;
        for (const auto &row : ui::chartRows())
            tables += row.tableBelow ? 1 : 0;
        QCOMPARE(tables, 1); // the seed's table is under one chart
    }

    void everyRowDrawsAndExports()
    {
        lab::PointResult p;
        p.target = QStringLiteral("epoll+sendfile");
        p.sizeBytes = 4096;
        p.load.completed = p.load.ok = 100;
        p.load.elapsedMicros = 1'000'000;
        p.load.bytesRead = 100 * 4096;
        p.startedAtMicros = 5'000'000;
        p.model = client::LoadModel::Rate; // a rate point: every chart draws one (latency-load
        p.offeredPerSecond = 100;          // draws only those)
        for (int i = 0; i < 100; ++i)
            p.load.latency.record(100 + i);
        p.serverUse.userMicros = 20'000; // what it cost: the cost chart's figure
        p.serverUse.systemMicros = 30'000;
        for (int i = 0; i < 3; ++i) {
            metrics::ProcessSample s;
            s.alive = true;
            s.atMicros = p.startedAtMicros + 100'000 * i;
            s.total = 10 + i;
            p.serverSamples.push_back(s);
        }
        const ui::RunView run{{p}, {p}, {4096}, {}};
        for (const auto &row : ui::chartRows()) {
            const std::unique_ptr<ui::RunChart> chart(row.create());
            QVERIFY(chart->view());
            QVERIFY2(!chart->view()->chart()->title().isEmpty(), row.name);
            chart->draw(run);
            const QString csv = chart->dataCsv(run);
            // A header line and at least one line of numbers.
            QVERIFY2(csv.count(u'\n') >= 2,
                     qPrintable(QString::fromLatin1(row.name) + QStringLiteral(": ") + csv));
        }
        QTemporaryDir dir;
        QStringList written;
        QString error;
        QVERIFY2(ui::writeRunCharts({p}, dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 2 * ui::chartNames().size());
        // A run without rate points has no latency-against-load chart to write.
        lab::PointResult closed = p;
        closed.model = client::LoadModel::Closed;
        written.clear();
        QVERIFY2(ui::writeRunCharts({closed}, dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 2 * ui::chartNames().size() - 2);
        QVERIFY(!written.contains(QStringLiteral("latency-load.png")));
        for (const QString &name : ui::chartNames())
            QVERIFY(QFile::exists(dir.filePath(name + QStringLiteral(".svg"))));
    }
};

QTEST_MAIN(TestChartRow)
#include "tst_chartrow.moc"
