// SPDX-License-Identifier: Apache-2.0
#include "chartframe.h"
#include "chartrow.h"
#include "resultstablemodel.h"
#include "runchart.h"
#include "runcharts.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QFile>
#include <QHash>
#include <QLineSeries>
#include <QScatterSeries>
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

    // One colour per target on every chart and in the table: a target whose every point is
    // DNF (drawn on some charts, absent from those over time) keeps its colour, and so does
    // the target after it; the cost chart, which orders its lines by name, takes them too.
    void aTargetHasOneColourOnEveryChart()
    {
        const auto make = [](const QString &target, qint64 start, bool dnf) {
            lab::PointResult p;
            p.target = target;
            p.sizeBytes = 4096;
            p.dnf = dnf;
            p.reason = dnf ? QStringLiteral("refused") : QString();
            p.startedAtMicros = start;
            p.model = client::LoadModel::Rate;
            p.offeredPerSecond = 100;
            if (dnf)
                return p;
            p.load.completed = p.load.ok = 100;
            p.load.elapsedMicros = 1'000'000;
            p.load.bytesRead = 100 * 4096;
            for (int i = 0; i < 100; ++i)
                p.load.latency.record(100 + i);
            p.serverUse.userMicros = 20'000;
            p.serverUse.systemMicros = 30'000;
            for (int i = 0; i < 3; ++i) {
                metrics::ProcessSample s;
                s.alive = true;
                s.atMicros = start + 100'000 * i;
                s.total = 10 + i;
                p.serverSamples.push_back(s);
                client::ClientSample c;
                c.endMicros = 100'000 * (i + 1);
                c.intervalMicros = 100'000;
                c.completed = 30;
                c.bytesRead = 30 * 4096;
                p.clientSamples.push_back(c);
            }
            return p;
        };
        // "zeta" first, "alpha" after the failed "mid": by name they would go the other way.
        const QList<lab::PointResult> points{make(QStringLiteral("zeta"), 1'000'000, false),
                                             make(QStringLiteral("mid"), 2'000'000, true),
                                             make(QStringLiteral("alpha"), 3'000'000, false)};
        const ui::RunView run{points, points, {4096}, {}};
        QHash<QString, QSet<QRgb>> colours;
        QHash<QString, int> charts;
        for (const auto &row : ui::chartRows()) {
            const std::unique_ptr<ui::RunChart> chart(row.create());
            chart->draw(run);
            QSet<QString> here;
            for (QAbstractSeries *series : chart->view()->chart()->series()) {
                const QString name = series->name();
                if (name != u"zeta" && name != u"alpha" && name != u"mid")
                    continue;
                QColor colour;
                if (auto *scatter = qobject_cast<QScatterSeries *>(series))
                    colour = scatter->color();
                else if (auto *line = qobject_cast<QLineSeries *>(series))
                    colour = line->pen().color();
                else
                    continue;
                colours[name].insert(colour.rgb());
                here.insert(name);
            }
            for (const QString &name : here)
                ++charts[name];
        }
        ui::ResultsTableModel table;
        for (const auto &p : points)
            table.addPoint(p);
        for (int r = 0; r < table.rowCount(); ++r) {
            const auto swatch =
                table.index(r, ui::ResultsTableModel::Target).data(Qt::DecorationRole);
            QVERIFY(swatch.canConvert<QColor>());
            colours[points[r].target].insert(swatch.value<QColor>().rgb());
        }
        QVERIFY2(charts.value(QStringLiteral("zeta")) >= 5, "the target drawn on most charts");
        QVERIFY2(charts.value(QStringLiteral("alpha")) >= 5, "the target drawn on most charts");
        for (auto it = colours.cbegin(); it != colours.cend(); ++it)
            QVERIFY2(it->size() == 1, qPrintable(it.key() + QStringLiteral(": several colours")));
        const bool dark = ui::darkPalette();
        QCOMPARE(*colours.value(QStringLiteral("zeta")).begin(),
                 ui::targetPen(0, dark).color().rgb());
        QCOMPARE(*colours.value(QStringLiteral("mid")).begin(),
                 ui::targetPen(1, dark).color().rgb());
        QCOMPARE(*colours.value(QStringLiteral("alpha")).begin(),
                 ui::targetPen(2, dark).color().rgb());
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
        // The same target over h2c too: the h2 tax chart's pair.
        p.target = QStringLiteral("epoll+sendfile http");
        lab::PointResult h2 = p;
        h2.target = QStringLiteral("epoll+sendfile h2c");
        h2.protocol = QStringLiteral("h2c");
        h2.load.elapsedMicros = 2'000'000;
        const ui::RunView run{{p, h2}, {p, h2}, {4096}, {}};
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
        QVERIFY2(ui::writeRunCharts({p, h2}, dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 2 * ui::chartNames().size());
        // A run without rate points has no latency-against-load chart to write, one over a
        // single protocol no h2 tax.
        lab::PointResult closed = p;
        closed.model = client::LoadModel::Closed;
        lab::PointResult closedH2 = h2;
        closedH2.model = client::LoadModel::Closed;
        written.clear();
        QVERIFY2(ui::writeRunCharts({closed, closedH2}, dir.path(), &written, &error),
                 qPrintable(error));
        QCOMPARE(written.size(), 2 * ui::chartNames().size() - 2);
        QVERIFY(!written.contains(QStringLiteral("latency-load.png")));
        written.clear();
        QVERIFY2(ui::writeRunCharts({closed}, dir.path(), &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 2 * ui::chartNames().size() - 4);
        QVERIFY(!written.contains(QStringLiteral("h2-tax.png")));
        for (const QString &name : ui::chartNames())
            QVERIFY(QFile::exists(dir.filePath(name + QStringLiteral(".svg"))));
    }
};

QTEST_MAIN(TestChartRow)
#include "tst_chartrow.moc"
