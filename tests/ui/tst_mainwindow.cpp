// SPDX-License-Identifier: Apache-2.0
#include "csvrows.h"
#include "experimentcontroller.h"
#include "experimentsmodel.h"
#include "experimentwizard.h"
#include "fdtypeschart.h"
#include "helpbrowser.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "lab/spec/sizelist.h"
#include "latencychart.h"
#include "mainwindow.h"
#include "processchart.h"
#include "profilepanel.h"
#include "ratechart.h"
#include "resultstablemodel.h"
#include "throughputchart.h"
#include "timelinechart.h"
#include "windowmenus.h"
#include "windowparts.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QCommandLinkButton>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace servelab;

namespace {

// The window's charts, by their rows' names.
ui::ThroughputChart *throughputChart(const ui::MainWindow &w)
{
    return testing::resultsView(w)->chart<ui::ThroughputChart>(QStringLiteral("throughput"));
}

ui::TimelineChart *fdsChart(const ui::MainWindow &w)
{
    return testing::resultsView(w)->chart<ui::TimelineChart>(QStringLiteral("fds"));
}

ui::RateChart *rateChart(const ui::MainWindow &w)
{
    return testing::resultsView(w)->chart<ui::RateChart>(QStringLiteral("rate"));
}

ui::LatencyChart *latencyChart(const ui::MainWindow &w)
{
    return testing::resultsView(w)->chart<ui::LatencyChart>(QStringLiteral("latency"));
}

ui::ProcessChart *processChart(const ui::MainWindow &w)
{
    return testing::resultsView(w)->chart<ui::ProcessChart>(QStringLiteral("process"));
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_data;

private Q_SLOTS:
    // Runs are kept in the user's database: here, one of this test's own.
    void initTestCase() { qputenv("XDG_DATA_HOME", m_data.path().toUtf8()); }

    void runsTheSweepAndExports()
    {
        QTemporaryDir dir;
        ui::MainWindow window;
        window.show();
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096, 65536, 1 << 20};
        spec.requests = 30;
        window.setSpec(spec);
        QCOMPARE(window.spec().sizes, spec.sizes);

        // The Run button says what it will run; after a run of this setup, how long it took.
        const auto runButton = [&window] {
            for (auto *b : testing::runPanel(window)->findChildren<QPushButton *>())
                if (b->text().startsWith(QStringLiteral("Run")))
                    return b;
            return static_cast<QPushButton *>(nullptr);
        };
        QVERIFY(runButton());
        QCOMPARE(runButton()->text(), QStringLiteral("Run 3 points"));
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(window.session()->isRunning());
        QVERIFY(!window.startRun()); // one run at a time
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(testing::runPanel(window)->status()));
        QVERIFY(!window.session()->isRunning());
        QTRY_VERIFY2(runButton()->toolTip().contains(QStringLiteral("the last run of this setup")),
                     qPrintable(runButton()->toolTip()));

        QCOMPARE(throughputChart(window)->pointCount(QStringLiteral("epoll+sendfile")), 3);
        QCOMPARE(throughputChart(window)->dnfCount(), 0);
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 3);
        QVERIFY(throughputChart(window)->valueAxisTitle().endsWith(QStringLiteral("/s")));

        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(window.exportChart(QStringLiteral("throughput"), png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 200 && image.height() > 150);

        const QString csv = dir.filePath(QStringLiteral("results.csv"));
        QVERIFY2(window.session()->exportCsv(csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const auto lines = csvrows::parse(QString::fromUtf8(file.readAll()));
        QCOMPARE(lines.size(), 4);
        const auto header = lines[0];
        QCOMPARE(header, lab::csvColumns());
        const int kib = static_cast<int>(header.indexOf(QStringLiteral("kib_per_s")));
        for (int i = 1; i < 4; ++i) {
            const auto fields = lines[i];
            QCOMPARE(fields.size(), header.size());
            QCOMPARE(fields[0].toULongLong(), spec.sizes[i - 1]);
            bool ok = false;
            QVERIFY(fields[kib].toDouble(&ok) > 0 && ok);
        }
    }

    void measuresARealServerAsATarget()
    {
        ui::MainWindow window;
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096, 65536};
        spec.requests = 20;
        spec.target = QStringLiteral("lighttpd"); // installed for the tests by packaging/test.sh
        window.setSpec(spec);
        QCOMPARE(window.spec().target, QStringLiteral("lighttpd"));
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(testing::runPanel(window)->status()));
        QCOMPARE(throughputChart(window)->pointCount(QStringLiteral("lighttpd")), 2);
    }

    void exportFailureNamesTheProblem()
    {
        ui::MainWindow window;
        QString error;
        QVERIFY(!window.exportChart(QStringLiteral("throughput"),
                                    QStringLiteral("/nonexistent-dir/chart.png"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/chart.png")), qPrintable(error));
        QVERIFY(!window.session()->exportCsv(QStringLiteral("/nonexistent-dir/x.csv"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/x.csv")));
    }

    void invalidFormDisablesRun()
    {
        ui::MainWindow window;
        auto *run = window.findChild<QPushButton *>();
        QVERIFY(run);
        QString problem;
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.concurrency = 500; // more than the requests per point
        spec.requests = 10;
        window.setSpec(spec);
        window.spec(&problem);
        QCOMPARE(problem, QStringLiteral("Concurrency 500 cannot exceed Requests per point (10), "
                                         "as in ab"));
        const auto buttons = window.findChildren<QPushButton *>();
        auto runButton = std::find_if(buttons.begin(), buttons.end(),
                                      [](auto *b) { return b->text() == QStringLiteral("Run"); });
        QVERIFY(runButton != buttons.end());
        QVERIFY(!(*runButton)->isEnabled());
        QVERIFY(!window.startRun());
        auto *label = window.findChild<QLabel *>(QStringLiteral("problem"));
        QVERIFY(label && label->text().contains(problem));
    }

    // Pause holds the run between points, resume goes on; the run is kept in the database
    // and shows in the history, with every chart filled.
    void pauseResumeAndHistory()
    {
        QTemporaryDir dir;
        ui::MainWindow window;
        window.session()->setDatabase(dir.filePath(QStringLiteral("results.db")));
        QCOMPARE(testing::history(window)->rowCount(), 0);
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096, 8192, 16384};
        spec.requests = 3000; // a few tenths of a second per point: time to pause in between
        spec.root = dir.filePath(QStringLiteral("root"));
        window.setSpec(spec);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QElapsedTimer firstPoint;
        firstPoint.start();
        QVERIFY(window.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(testing::resultsView(window)->model()->rowCount() >= 1, 20000);
        const qint64 pointMs = firstPoint.elapsed(); // a point here, and the start before it
        window.session()->pauseRun();
        QVERIFY(window.session()->isPaused());
        // The point being measured may still finish: the pause is reached once its progress
        // comes in while paused (the runner then waits before the next point).
        QTRY_VERIFY2_WITH_TIMEOUT(
            testing::runPanel(window)->status().startsWith(QStringLiteral("Paused after")),
            qPrintable(testing::runPanel(window)->status()), 30000);
        const int held = testing::resultsView(window)->model()->rowCount();
        // After it, nothing moves: the stimulus is time itself, as long as the first point took
        // here, so a run that did not hold would finish another point meanwhile.
        QTest::qWait(int(qBound(qint64(700), pointMs, qint64(10000))));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), held);
        QVERIFY2(testing::runPanel(window)->status().startsWith(QStringLiteral("Paused after")),
                 qPrintable(testing::runPanel(window)->status()));
        // The history counts the points as they are kept.
        QCOMPARE(testing::history(window)->index(0, ui::ExperimentsModel::Points).data().toInt(),
                 held);
        window.session()->resumeRun();
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(testing::runPanel(window)->status()));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 3);
        QCOMPARE(fdsChart(window)->targetCount(), 1);
        QVERIFY(rateChart(window)->sampleCount() >= 3);
        QCOMPARE(latencyChart(window)->seriesCount(), 2); // the smallest and the largest size
        QVERIFY(testing::runPanel(window)->logText().contains(
            QStringLiteral("[3/3] epoll+sendfile, 16K")));

        QAbstractItemModelTester tester(testing::history(window),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(testing::history(window)->rowCount(), 1);
        const QModelIndex status = testing::history(window)->index(0, ui::ExperimentsModel::Status);
        QCOMPARE(status.data().toString(), QStringLiteral("done"));
        QCOMPARE(testing::history(window)->index(0, ui::ExperimentsModel::Points).data().toInt(),
                 3);

        // Shown again from the database, as the history dock does.
        window.setSpec(spec);
        QString error;
        QVERIFY2(window.session()->showExperiment(
                     status.data(ui::ExperimentsModel::IdRole).toLongLong(), &error),
                 qPrintable(error));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 3);
        QCOMPARE(throughputChart(window)->pointCount(QStringLiteral("epoll+sendfile")), 3);

        // An earlier run overlaid: its line beside, and the ratio at each size (here the run
        // itself, so every ratio is 1).
        QVERIFY2(window.session()->overlayExperiment(
                     status.data(ui::ExperimentsModel::IdRole).toLongLong(), &error),
                 qPrintable(error));
        const QString overlaid = QStringLiteral("epoll+sendfile (#%1)")
                                     .arg(status.data(ui::ExperimentsModel::IdRole).toLongLong());
        QCOMPARE(throughputChart(window)->pointCount(overlaid), 3);
        QCOMPARE(window.session()->comparison().rows.size(), 3);
        for (const auto &row : window.session()->comparison().rows)
            QCOMPARE(row.ratio(), 1.0);
        QVERIFY(testing::runPanel(window)->status().contains(
            QStringLiteral("overlaid with experiment")));
        window.session()->clearOverlays();
        QCOMPARE(throughputChart(window)->pointCount(overlaid), 0);
        QCOMPARE(window.session()->comparison().rows.size(), 0);

        // A PNG of a chosen size and scale; the chart on screen keeps its own.
        {
            const QString sized = dir.filePath(QStringLiteral("sized.png"));
            // (Not shown here: a first export gives the view the tab's size.)
            QVERIFY(window.exportChart(QStringLiteral("throughput"), sized, &error));
            const QSize shown = throughputChart(window)->view()->size();
            QVERIFY2(
                window.exportChart(QStringLiteral("throughput"), sized, &error, 2, QSize(640, 360)),
                qPrintable(error));
            QCOMPARE(QImage(sized).size(), QSize(1280, 720));
            QCOMPARE(throughputChart(window)->view()->size(), shown);
            QCOMPARE(throughputChart(window)->view()->chart()->size(), QSizeF(shown));
            QVERIFY(window.chartSize(QStringLiteral("fds")).width() >= 200);
        }
        // Every chart exports, PNG at 2× or SVG.
        for (const QString &chart : ui::chartNames()) {
            const QString png = dir.filePath(chart + QStringLiteral(".png"));
            QVERIFY2(window.exportChart(chart, png, &error, 2), qPrintable(error));
            QVERIFY(QImage(png).width() >= 400);
            const QString svg = dir.filePath(chart + QStringLiteral(".svg"));
            QVERIFY2(window.exportChart(chart, svg, &error), qPrintable(error));
            QFile file(svg);
            QVERIFY(file.open(QIODevice::ReadOnly) && file.readAll().contains("<svg"));
        }
        QVERIFY(!window.exportChart(QStringLiteral("pie"), dir.filePath(QStringLiteral("x.png")),
                                    &error));
        QVERIFY(error.contains(QStringLiteral("pie")));

        // The chart's data as CSV reads back as the numbers measured.
        const QString data = dir.filePath(QStringLiteral("throughput.csv"));
        QVERIFY2(testing::resultsView(window)->exportChartData(QStringLiteral("throughput"), data,
                                                               &error),
                 qPrintable(error));
        QFile csv(data);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const auto lines = csvrows::parse(QString::fromUtf8(csv.readAll()));
        QCOMPARE(lines.size(), 4);
        const QStringList header = lines[0];
        const auto kib = header.indexOf(QStringLiteral("kib_per_s"));
        QVERIFY(kib > 0);
        for (int i = 1; i < 4; ++i) {
            const QStringList &fields = lines[i];
            const auto &point = testing::resultsView(window)->model()->points()[i - 1];
            QCOMPARE(fields[0].toULongLong(), point.sizeBytes);
            QCOMPARE(fields[kib], QString::number(point.kibPerSecond(), 'f', 2));
        }
        for (const QString &chart : ui::chartNames())
            QVERIFY2(testing::resultsView(window)->exportChartData(
                         chart, dir.filePath(chart + QStringLiteral(".csv")), &error),
                     qPrintable(error));
        QVERIFY(window.session()->tableTsv().startsWith(QStringLiteral("File Size")));
        QCOMPARE(window.session()->tableTsv().trimmed().count(u'\n'),
                 3); // the header, then 3 sizes

        // The bundle opens again, by itself, as a drop or a recent file would open it.
        const QString bundle = dir.filePath(QStringLiteral("bundle.json"));
        QVERIFY2(window.session()->exportBundle(bundle, &error), qPrintable(error));
        ui::MainWindow other;
        QVERIFY2(other.session()->openFile(bundle, &error), qPrintable(error));
        QCOMPARE(testing::resultsView(other)->model()->rowCount(), 3);
        QCOMPARE(other.session()->recentFiles().value(0), bundle);
        QVERIFY(!other.session()->openFile(dir.filePath(QStringLiteral("none.db")), &error));
    }

    // Layout, form, tab and recent files come back at the next start.
    void settingsAreRemembered()
    {
        QTemporaryDir dir;
        QString error;
        {
            ui::MainWindow window;
            lab::SweepSpec spec = lab::SweepSpec::defaults();
            spec.sizes = {4096, 1 << 20};
            spec.requests = 77;
            window.setSpec(spec);
            window.showTab(QStringLiteral("latency"));
            QFile preset(QStringLiteral(":/presets/poller-handoff.json"));
            QVERIFY(preset.copy(dir.filePath(QStringLiteral("mine.json"))));
            QVERIFY(window.session()->openFile(dir.filePath(QStringLiteral("mine.json")), &error));
            window.show();
            window.close();
        }
        ui::MainWindow again;
        QCOMPARE(again.spec().requests, 77u);
        QCOMPARE(again.spec().sizes, (QList<quint64>{4096, 1 << 20}));
        QCOMPARE(again.session()->recentFiles().value(0),
                 dir.filePath(QStringLiteral("mine.json")));
    }

    // The point being measured grows in the charts about ten times a second, and the GUI
    // thread keeps answering (a 10 ms heartbeat; its worst gap is printed, not judged: this is
    // a shared 2-core machine).
    void liveChartsDuringAPoint()
    {
        QTemporaryDir dir;
        ui::MainWindow window;
        window.session()->setDatabase(dir.filePath(QStringLiteral("results.db")));
        window.show();
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096};
        spec.requests = 10'000'000; // longer than the test: cancelled below
        spec.root = dir.filePath(QStringLiteral("root"));
        window.setSpec(spec);
        QElapsedTimer beat;
        qint64 worst = 0;
        QTimer heartbeat;
        heartbeat.setInterval(10);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            if (beat.isValid())
                worst = std::max(worst, beat.restart());
            else
                beat.start();
        });
        heartbeat.start();
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QTRY_VERIFY_WITH_TIMEOUT(rateChart(window)->liveCount() >= 5, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(fdsChart(window)->liveCount() >= 5, 5000);
        QVERIFY2(testing::runPanel(window)->status().contains(QStringLiteral("requests/s now")),
                 qPrintable(testing::runPanel(window)->status()));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(),
                 0); // all of it from the point not yet finished
        const int grown = rateChart(window)->liveCount();
        QTRY_VERIFY_WITH_TIMEOUT(rateChart(window)->liveCount() > grown, 5000);
        window.session()->cancelRun();
        QVERIFY(finished.wait(10000));
        heartbeat.stop();
        qInfo("worst GUI-thread gap during the live run: %lld ms (10 ms heartbeat)", worst);
        QCOMPARE(rateChart(window)->liveCount(), 0); // the cancelled point, drawn whole
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 1);
    }

    // Several runs at once, as the history's selection asks: the newest shown, the others
    // overlaid (dashed, each run's first point at 0 s), the ratio against each in Compare.
    void severalRunsShownTogether()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        QList<qint64> ids;
        {
            lab::ResultStore store;
            QString error;
            QVERIFY2(store.open(db, &error), qPrintable(error));
            for (int run = 0; run < 3; ++run) {
                const qint64 id =
                    store.beginExperiment(QStringLiteral("run %1").arg(run), "{}", &error);
                QVERIFY2(id > 0, qPrintable(error));
                for (quint64 size : {4096ull, 8192ull}) {
                    lab::PointResult p;
                    p.target = QStringLiteral("a");
                    p.sizeBytes = size;
                    p.load.completed = p.load.ok = 100;
                    p.load.elapsedMicros = 1'000'000;
                    p.load.bytesRead = quint64(1024 * 100 * (run + 1)); // 100, 200, 300 KiB/s
                    for (int i = 1; i <= 100; ++i)
                        p.load.latency.record(i * 10);
                    // Each run an hour after the one before, on the machine's clock.
                    p.startedAtMicros =
                        3'600'000'000LL * (run + 1) + (size == 4096 ? 0 : 2'000'000);
                    for (int i = 0; i < 5; ++i) {
                        metrics::ProcessSample sample;
                        sample.alive = true;
                        sample.atMicros = p.startedAtMicros + 100'000 * i;
                        sample.total = 10 + run;
                        p.serverSamples.push_back(sample);
                    }
                    QVERIFY2(store.addPoint(id, p, &error), qPrintable(error));
                }
                QVERIFY(store.finishExperiment(id, servelab::lab::RunStatus::Done, &error));
                ids.prepend(id); // newest first, as the history hands them over
            }
        }
        ui::MainWindow window;
        window.session()->setDatabase(db);
        QString error;
        QVERIFY2(window.session()->showExperiments(ids, &error), qPrintable(error));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 2); // the newest run's points
        QVERIFY(testing::runPanel(window)->status().contains(
            QStringLiteral("overlaid with experiment %1, %2").arg(ids[1]).arg(ids[2])));
        // Ratios: 300 KiB/s against 200 and against 100.
        QCOMPARE(window.session()->comparison(ids[1]).rows.size(), 2);
        QVERIFY(qAbs(window.session()->comparison(ids[1]).rows[0].ratio() - 1.5) < 1e-9);
        QVERIFY(qAbs(window.session()->comparison(ids[2]).rows[1].ratio() - 3.0) < 1e-9);
        auto *compare = window.findChild<QTableWidget *>(QStringLiteral("compare"));
        QVERIFY(compare);
        QCOMPARE(compare->columnCount(), 7); // target, size, shown, and 2 per overlay
        QCOMPARE(compare->rowCount(), 2);
        QCOMPARE(compare->item(0, 6)->text(), QLocale().toString(3.0, 'f', 3));
        // Every run's throughput line, and the time charts on one clock: each run from 0 s.
        QCOMPARE(throughputChart(window)->pointCount(QStringLiteral("a (#%1)").arg(ids[2])), 2);
        for (qint64 id : {ids[1], ids[2]}) {
            QLineSeries *first = nullptr;
            for (auto *series : fdsChart(window)->view()->chart()->series())
                if (series->name() == QStringLiteral("a (#%1)").arg(id) && !first)
                    first = qobject_cast<QLineSeries *>(series);
            QVERIFY(first);
            QCOMPARE(first->at(0).x(), 0.0);
            QCOMPARE(first->pen().style(), Qt::DashLine);
        }
        // The chart's data is what it draws: the overlays' rows too.
        for (const QString &chart : {QStringLiteral("throughput"), QStringLiteral("fds")}) {
            const QString csv = dir.filePath(chart + QStringLiteral(".csv"));
            QVERIFY2(testing::resultsView(window)->exportChartData(chart, csv, &error),
                     qPrintable(error));
            QFile file(csv);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            QVERIFY2(text.contains(QStringLiteral("a (#%1)").arg(ids[2])), qPrintable(text));
        }
        QCOMPARE(latencyChart(window)->seriesCount(), 6); // 3 runs × smallest and largest size
        window.session()->clearOverlays();
        QCOMPARE(latencyChart(window)->seriesCount(), 2);
        QCOMPARE(compare->rowCount(), 0);
        // A run that is not in the database: said, and nothing else changes.
        window.session()->showExperiments({ids[2]}, &error);
        QVERIFY(!window.session()->showExperiments({ids[0], 9999}, &error));
        QVERIFY2(error.contains(QStringLiteral("9999")), qPrintable(error));
        QVERIFY(testing::runPanel(window)->status().contains(
            QStringLiteral("run 0"))); // still the one shown
    }

    // A first start (an empty home) opens on the welcome page, which runs the default
    // comparison or opens a seed's preset, and goes once a run begins. F1 opens the help page,
    // the View menu brings back the panel and the history, the presets say what they are.
    void firstStartHelpAndViewMenu()
    {
        QTemporaryDir home;
        const QByteArray data = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        ui::MainWindow window;
        qputenv("XDG_DATA_HOME", data);
        window.show();
        auto *tabs = window.findChild<QTabWidget *>();
        QVERIFY(testing::welcomePage(window));
        QCOMPARE(tabs->currentWidget(), testing::welcomePage(window));
        // --tab names a chart's page, the welcome page before it or not.
        QVERIFY(window.showTab(QStringLiteral("process")));
        QCOMPARE(window.currentChartName(), QStringLiteral("process"));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Process"));
        QVERIFY(window.showTab(QStringLiteral("profile")));
        QCOMPARE(tabs->currentWidget(), testing::profilePanel(window));
        QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Profile"));
        tabs->setCurrentWidget(testing::welcomePage(window));
        auto *seed = testing::welcomePage(window)->findChild<QCommandLinkButton *>(
            QStringLiteral("preset-seed001-httpd-vs-tomcat"));
        QVERIFY(seed);
        QVERIFY(seed->text().startsWith(QStringLiteral("seed 001")));

        // F1: the help page, whatever has the focus.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_F1);
        auto *help = window.findChild<ui::HelpBrowser *>();
        QVERIFY(help);
        QTRY_VERIFY(help->isVisible());
        QCOMPARE(help->title(), QStringLiteral("ServeLab help"));
        help->close();
        // It covers every tab (by its whole name, the tab's tooltip), the verdicts and https.
        QFile page(QStringLiteral(":/help/index.html"));
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(page.readAll());
        for (int i = 0; i < tabs->count(); ++i) {
            const QString name = tabs->tabToolTip(i);
            QVERIFY2(html.contains(QStringLiteral("<dt><b>%1</b>").arg(name)) ||
                         html.contains(QStringLiteral("(%1)</dt>").arg(name)),
                     qPrintable(name));
        }
        for (const char *anchor : {"verdicts", "https", "tabs", "history"})
            QVERIFY2(html.contains(QStringLiteral("id=\"%1\"").arg(QLatin1String(anchor))), anchor);

        // View: the panel and the history come and go.
        auto *view = window.findChild<QMenu *>(QStringLiteral("viewMenu"));
        QCOMPARE(view->actions().size(), 2);
        view->actions()[0]->trigger();
        QVERIFY(!testing::settingsPanel(window)->isVisible());
        view->actions()[0]->trigger();
        QVERIFY(testing::settingsPanel(window)->isVisible());
        testing::historyDock(window)->close();
        QVERIFY(!view->actions()[1]->isChecked());
        view->actions()[1]->trigger();
        QVERIFY(testing::historyDock(window)->isVisible());

        // The presets menu names what each reproduces, and how to run it from a shell.
        auto *presets = window.findChild<QMenu *>(QStringLiteral("presetsMenu"));
        QVERIFY(presets->actions().size() >= 9);
        for (QAction *action : presets->actions()) {
            QVERIFY2(action->text().contains(QStringLiteral("  (")), qPrintable(action->text()));
            QVERIFY(action->toolTip().startsWith(QStringLiteral("servelab-cli run ")));
        }

        // The default comparison runs at once; the welcome page goes with the run's start.
        auto *runDefault = testing::welcomePage(window)->findChild<QCommandLinkButton *>(
            QStringLiteral("runDefault"));
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        runDefault->click();
        QVERIFY(window.session()->isRunning());
        // The four strategies, and nginx (installed on every leg of packaging/test.sh).
        QCOMPARE(window.experiment().targets.size(), 5);
        QCOMPARE(window.experiment().targets.last().label(), QStringLiteral("nginx"));
        QTRY_VERIFY(!testing::welcomePage(window));
        window.session()->cancelRun();
        QVERIFY(finished.wait(30000));

        // A first run from an empty home reports no descriptor the server did not open: the
        // built-in server runs in its own process, apart from the database opened meanwhile.
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096, 65536};
        spec.requests = 50;
        spec.root = home.filePath(QStringLiteral("root"));
        window.setSpec(spec);
        QVERIFY(window.startRun());
        QVERIFY(finished.wait(60000));
        const auto &points = window.session()->points();
        QCOMPARE(points.size(), 2);
        for (const auto &p : points) {
            QVERIFY2(p.fdsLeftOpen.isEmpty(), qPrintable(p.fdsLeftOpen.join(u'\n')));
            QVERIFY2(!p.dnf && p.reason.isEmpty(), qPrintable(p.reason));
            QCOMPARE(p.target, QStringLiteral("epoll+sendfile")); // not "(in-process)"
        }
    }

    // A real server not installed here is said before the run, in the log, with what to do;
    // the other targets run.
    void missingServerIsSaidBeforeTheRun()
    {
        qputenv("TOMCAT_HOME", "/nonexistent/tomcat");
        QTemporaryDir dir;
        ui::MainWindow window;
        window.session()->setDatabase(dir.filePath(QStringLiteral("results.db")));
        lab::SweepSpec builtin = lab::SweepSpec::defaults();
        builtin.sizes = {4096};
        builtin.requests = 20;
        builtin.root = dir.filePath(QStringLiteral("root"));
        lab::SweepSpec tomcat = builtin;
        tomcat.target = QStringLiteral("tomcat");
        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("with tomcat");
        spec.targets = {tomcat, builtin};
        window.setExperiment(spec);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY2(testing::runPanel(window)->logText().contains(
                     QStringLiteral("warning: tomcat is not installed on this machine, so its "
                                    "points would be DNF: install it (apt-get install tomcat10")),
                 qPrintable(testing::runPanel(window)->logText()));
        QVERIFY(finished.wait(60000));
        qunsetenv("TOMCAT_HOME");
        const auto &points = window.session()->points();
        QCOMPARE(points.size(), 2);
        QVERIFY(points[0].dnf);
        QVERIFY2(!points[1].dnf, qPrintable(points[1].reason));
    }

    // The history's selection is what is shown: one run (the left panel then holds its spec,
    // so Run runs it again), or several together; Compare and Run again are buttons.
    void historySelectionShowsComparesAndRunsAgain()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        const QString root = dir.filePath(QStringLiteral("root"));
        const QByteArray spec =
            QStringLiteral(R"({"servelab": 1, "name": "tiny", "document_root": "%1",
                "targets": [{"builtin": "epoll+copy"}], "sizes": ["4K"],
                "client": {"model": "closed", "requests": 20}})")
                .arg(root)
                .toUtf8();
        {
            lab::ResultStore store;
            QString error;
            QVERIFY2(store.open(db, &error), qPrintable(error));
            for (int run = 0; run < 2; ++run) {
                const qint64 id = store.beginExperiment(QStringLiteral("tiny"), spec, &error);
                lab::PointResult p;
                p.target = QStringLiteral("epoll+copy");
                p.sizeBytes = 4096;
                p.load.completed = p.load.ok = 20;
                p.load.elapsedMicros = 1'000'000;
                p.load.bytesRead = quint64(1024 * 100 * (run + 1));
                QVERIFY2(store.addPoint(id, p, &error), qPrintable(error));
                QVERIFY(store.finishExperiment(id, lab::RunStatus::Done, &error));
            }
        }
        ui::MainWindow window;
        window.session()->setDatabase(db);
        auto *hint = window.findChild<QLabel *>(QStringLiteral("compareHint"));
        QVERIFY(hint->text().startsWith(QStringLiteral("Nothing to compare yet")));
        auto *view = window.findChild<QTableView *>(QStringLiteral("historyView"));
        QAbstractItemModelTester tester(view->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view->model()->rowCount(), 2);
        auto *compare = window.findChild<QPushButton *>(QStringLiteral("compareRuns"));
        auto *runAgain = window.findChild<QPushButton *>(QStringLiteral("runAgain"));
        QVERIFY(!compare->isEnabled() && !runAgain->isEnabled());

        // Both selected: the newest shown, the other overlaid, Compare can go.
        view->selectAll();
        QCOMPARE(window.session()->overlays().size(), 1);
        QVERIFY(compare->isEnabled());
        QVERIFY(!runAgain->isEnabled());
        compare->click();
        auto *tabs = window.findChild<QTabWidget *>();
        QCOMPARE(tabs->currentWidget(), testing::resultsView(window)->comparePage());
        QVERIFY2(hint->text().contains(QStringLiteral("ratio")), qPrintable(hint->text()));
        QCOMPARE(testing::resultsView(window)->compareTable()->item(0, 4)->text(),
                 QLocale().toString(2.0, 'f', 3));

        // One selected: it alone, and the left panel holds its spec.
        view->selectRow(1);
        QVERIFY(window.session()->overlays().isEmpty());
        QCOMPARE(window.experiment().name, QStringLiteral("tiny"));
        QVERIFY(runAgain->isEnabled());
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        runAgain->click();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QTRY_COMPARE_WITH_TIMEOUT(testing::history(window)->rowCount(), 3, 10000);
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 1); // the new run's point
    }

    // A chart off screen costs nothing while points arrive: it is drawn whole when its tab is
    // shown (or when asked for), with the point being measured.
    void chartsOffScreenWaitUntilShown()
    {
        ui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.showTab(QStringLiteral("throughput")));
        auto *controller = window.findChild<ui::ExperimentController *>();
        auto *fdTypes = window.findChild<ui::FdTypesChart *>();
        auto *timeline = window.findChild<ui::TimelineChart *>();
        QVERIFY(controller && fdTypes && timeline);
        Q_EMIT controller->started(0, 3);
        for (int index = 0; index < 3; ++index) {
            lab::PointResult point;
            point.index = index;
            point.target = QStringLiteral("t");
            point.sizeBytes = 4096u << index;
            point.startedAtMicros = 1'000'000 * (index + 1);
            point.load.completed = point.load.ok = 10;
            point.load.elapsedMicros = 500'000;
            point.load.bytesRead = 10 * point.sizeBytes;
            for (int i = 0; i < 4; ++i) {
                metrics::ProcessSample sample;
                sample.alive = true;
                sample.atMicros = point.startedAtMicros + 100'000 * i;
                sample.total = 12;
                point.serverSamples.push_back(sample);
            }
            Q_EMIT controller->pointFinished(point);
        }
        lab::LiveFeed::Update update; // the fourth point, being measured
        update.serial = 4;
        update.target = QStringLiteral("t");
        update.startedAtMicros = 4'000'000;
        for (int i = 0; i < 3; ++i) {
            metrics::ProcessSample sample;
            sample.alive = true;
            sample.atMicros = 4'000'000 + 100'000 * i;
            sample.total = 13;
            update.server.push_back(sample);
        }
        testing::runPanel(window)->applyLive(update);
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 3);
        QCOMPARE(fdTypes->sampleCount(), 0); // not drawn: its tab is not shown
        QCOMPARE(timeline->liveCount(), 0);
        QVERIFY(window.showTab(QStringLiteral("fds")));
        QCOMPARE(fdTypes->sampleCount(), 12);
        QCOMPARE(timeline->sampleCount(), 12);
        QCOMPARE(timeline->liveCount(), 3);
        // Asked for without being shown: drawn first.
        QCOMPARE(processChart(window)->sampleCount(), 12);
    }

    // The issue's load, scripted and compressed: 14 sizes × 6 targets with 10 Hz samples for
    // 10 minutes (71 samples a point, 8 client threads), fed through the controller's signals
    // and the live path as a run would, on the File descriptors tab (the heaviest to draw: the
    // live line over five stacked areas). Every GUI-thread step is timed; the worst is printed
    // (not judged: a shared 2-core machine); every chart, drawn when asked for, holds every point.
    void scriptedLongRunStaysResponsive()
    {
        ui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.showTab(QStringLiteral("fds")));
        auto *controller = window.findChild<ui::ExperimentController *>();
        QVERIFY(controller);
        const QStringList targets{QStringLiteral("t1"), QStringLiteral("t2"), QStringLiteral("t3"),
                                  QStringLiteral("t4"), QStringLiteral("t5"), QStringLiteral("t6")};
        QList<quint64> sizes;
        lab::parseSizeList(QStringLiteral("4K..32M"), &sizes, nullptr);
        const int total = int(targets.size() * sizes.size());
        constexpr int samplesPerPoint = 71; // 600 s / 84 points at 10 Hz
        Q_EMIT controller->started(0, total);
        std::int64_t clock = 1'000'000;
        qint64 worst = 0;
        QElapsedTimer step;
        int index = 0;
        for (const QString &target : targets) {
            for (quint64 size : sizes) {
                Q_EMIT controller->pointStarted(index, target, size, 0);
                lab::PointResult point;
                point.index = index;
                point.target = target;
                point.sizeBytes = size;
                point.startedAtMicros = clock;
                point.load.completed = point.load.ok = 1000;
                point.load.elapsedMicros = samplesPerPoint * 100'000;
                point.load.bytesRead = 1000 * size;
                for (int i = 0; i < samplesPerPoint; ++i) {
                    lab::LiveFeed::Update update;
                    update.serial = index + 1;
                    update.target = target;
                    update.sizeBytes = size;
                    update.startedAtMicros = point.startedAtMicros;
                    metrics::ProcessSample server;
                    server.alive = true;
                    server.atMicros = clock;
                    server.total = 20 + i % 7;
                    server.threads = 9;
                    update.server.push_back(server);
                    point.serverSamples.push_back(server);
                    for (int thread = 0; thread < 8; ++thread)
                        update.client.push_back({100'000 * (i + 1), 100'000, 14, 14 * size});
                    client::ClientSample summed;
                    summed.endMicros = 100'000 * (i + 1);
                    summed.intervalMicros = 100'000;
                    summed.completed = 8 * 14;
                    point.clientSamples.push_back(summed);
                    step.start();
                    testing::runPanel(window)->applyLive(update);
                    worst = std::max(worst, step.elapsed());
                    clock += 100'000;
                }
                step.start();
                Q_EMIT controller->pointFinished(point);
                Q_EMIT controller->progress(index + 1, total, (total - index - 1) * 7000);
                QCoreApplication::processEvents();
                worst = std::max(worst, step.elapsed());
                ++index;
            }
        }
        qInfo("worst GUI-thread step over %d scripted points, %d samples each: %lld ms", total,
              samplesPerPoint, worst);
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), total);
        for (const QString &target : targets)
            QCOMPARE(throughputChart(window)->pointCount(target), int(sizes.size()));
        QCOMPARE(fdsChart(window)->sampleCount(), total * samplesPerPoint);
        QCOMPARE(rateChart(window)->sampleCount(), total * samplesPerPoint);
        QCOMPARE(fdsChart(window)->liveCount(), 0); // every point drawn whole, none live
    }

    // A preset takes the form's place; the spec editor shows it, checks what is typed, lists
    // problems with their place and jumps there.
    void presetsAndTheSpecEditor()
    {
        ui::MainWindow window;
        QString error;
        QVERIFY(!window.session()->loadPreset(QStringLiteral("no-such-preset"), &error));
        QVERIFY(error.contains(QStringLiteral("no-such-preset")));
        QVERIFY2(window.session()->loadPreset(QStringLiteral("ab-c300-maxthreads"), &error),
                 qPrintable(error));
        QVERIFY(!window.usesForm());
        QCOMPARE(window.experiment().targets.size(), 2);
        // The panel names the experiment's shape: targets, and each axis that multiplies them.
        auto *note = window.findChild<QLabel *>(QStringLiteral("specNote"));
        QVERIFY(note);
        QVERIFY2(window.session()->loadPreset(QStringLiteral("latency-vs-load"), &error),
                 qPrintable(error));
        QVERIFY2(note->text().contains(QStringLiteral(
                     "3 targets × 10 offered rates (30 series), 30 points per repetition, 1 "
                     "repetition")),
                 qPrintable(note->text()));
        QVERIFY2(window.session()->loadPreset(QStringLiteral("ab-c300-maxthreads"), &error),
                 qPrintable(error));
        auto *editor = window.findChild<QPlainTextEdit *>(QStringLiteral("specEditor"));
        QVERIFY(editor);
        QVERIFY(editor->toPlainText().contains(QStringLiteral("\"concurrency\": 300")));

        editor->setPlainText(
            QStringLiteral("{\"servelab\": 1,\n \"targets\": [{\"builtin\": \"epoll+copy\"}],\n"
                           " \"client\": {\"requests\": 0}}"));
        QTRY_COMPARE_WITH_TIMEOUT(testing::specEditor(window)->problems().size(), 1, 3000);
        QVERIFY2(testing::specEditor(window)->problems().first().startsWith(
                     QStringLiteral("spec:3:25: "
                                    "client.requests")),
                 qPrintable(testing::specEditor(window)->problems().first()));
        QString problem;
        window.experiment(&problem);
        QVERIFY(problem.contains(QStringLiteral("1 problem")));
        QVERIFY(!window.startRun());
        auto *list = window.findChild<QListWidget *>(QStringLiteral("specProblems"));
        Q_EMIT list->itemActivated(list->item(0));
        QCOMPARE(editor->textCursor().blockNumber(), 2);
        QCOMPARE(editor->textCursor().positionInBlock(), 24); // column 25

        editor->setPlainText(QStringLiteral(
            "{\"servelab\": 1, \"name\": \"typed\", \"targets\": [{\"builtin\": "
            "\"epoll+copy\"}, {\"builtin\": \"blocking+copy\"}], \"sizes\": [\"4K\"]}"));
        QTRY_VERIFY_WITH_TIMEOUT(testing::specEditor(window)->problems().isEmpty(), 3000);
        window.experiment(&problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(window.experiment().name, QStringLiteral("typed"));
        QCOMPARE(window.experiment().targets.size(), 2);
    }

    // The wizard opens pre-filled with what the window has; Run there runs it here.
    void wizardRunsWhatItShows()
    {
        QTemporaryDir dir;
        ui::MainWindow window;
        window.session()->setDatabase(dir.filePath(QStringLiteral("results.db")));
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.sizes = {4096, 8192};
        spec.requests = 10;
        spec.root = dir.filePath(QStringLiteral("root"));
        window.setSpec(spec);
        QPointer<ui::ExperimentWizard> wizard = window.openWizard(window.experiment());
        QVERIFY(wizard && wizard->isVisible());
        for (int page = 0; page < 5; ++page)
            wizard->next();
        QCOMPARE(wizard->currentId(), int(ui::ExperimentWizard::Review));
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        wizard->accept();
        QVERIFY(window.session()->isRunning());
        QVERIFY(!window.usesForm());
        QVERIFY(finished.wait(30000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(testing::runPanel(window)->status()));
        QCOMPARE(testing::resultsView(window)->model()->rowCount(), 2);
        QTRY_VERIFY(wizard.isNull()); // closed, and gone
    }

    // A spec that names a hosts file runs across its hosts from the window (local agents here;
    // tst_multihost reaches real sshds): each point's load agents in the log and on the Rate
    // tab; a hosts file that cannot be read fails the run with its reason.
    void runsAcrossHosts()
    {
        QTemporaryDir dir;
        const QString hosts = dir.filePath(QStringLiteral("hosts.json"));
        QFile file(hosts);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"servelab": 1, "agent": "%1",
  "server": {"host": "srv", "via": "local", "address": "127.0.0.1"},
  "load": [{"host": "a", "via": "local"}, {"host": "b", "via": "local"}]})")
                       .arg(qEnvironmentVariable("SERVELAB_CLI"))
                       .toUtf8());
        file.close();
        ui::MainWindow window;
        window.session()->setDatabase(dir.filePath(QStringLiteral("results.db")));
        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("across hosts");
        lab::SweepSpec target = lab::SweepSpec::defaults();
        target.sizes = {4096, 65536};
        target.requests = 40;
        target.concurrency = 2;
        spec.targets = {target};
        spec.hosts = hosts;
        window.setExperiment(spec);
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(),
                 qPrintable(testing::runPanel(window)->status()));
        const auto &points = window.session()->points();
        QCOMPARE(points.size(), 2);
        for (const lab::PointResult &p : points)
            QCOMPARE(p.agents.size(), std::size_t(2));
        QVERIFY2(testing::runPanel(window)->logText().contains(
                     QStringLiteral("  load agent 2 (b): 20 ok")),
                 qPrintable(testing::runPanel(window)->logText()));
        auto *agents = rateChart(window)->findChild<QComboBox *>(QStringLiteral("rateAgents"));
        QVERIFY(agents && !agents->isHidden());

        spec.hosts = dir.filePath(QStringLiteral("missing.json"));
        window.setExperiment(spec);
        finished.clear();
        QVERIFY(window.startRun());
        QVERIFY(finished.wait(10000));
        QVERIFY(!finished.first().first().toBool());
        QVERIFY2(testing::runPanel(window)->status().contains(
                     QStringLiteral("cannot read the hosts file")),
                 qPrintable(testing::runPanel(window)->status()));
    }

    // A file dialog opens in the folder a file was last chosen in, not the working folder.
    void fileDialogsOpenWhereTheLastFileWent()
    {
        QTemporaryDir first;
        QSettings().remove(QStringLiteral("files/lastFolder"));
        QCOMPARE(ui::fileDialogStart(QStringLiteral("chart.svg")),
                 QDir(QDir::homePath()).filePath(QStringLiteral("chart.svg")));
        ui::rememberFileFolder(QDir(first.path()).filePath(QStringLiteral("chart.png")));
        QCOMPARE(ui::fileDialogStart(QStringLiteral("chart.svg")),
                 QDir(first.path()).filePath(QStringLiteral("chart.svg")));
        QCOMPARE(ui::fileDialogStart(QStringLiteral("/srv/results.db")),
                 QStringLiteral("/srv/results.db")); // an absolute start as it is
    }

    void closingDuringARunStopsIt()
    {
        QElapsedTimer clock;
        {
            ui::MainWindow window;
            lab::SweepSpec spec = lab::SweepSpec::defaults();
            spec.sizes = {4096};
            spec.requests = 10'000'000;
            window.setSpec(spec);
            QVERIFY(window.startRun());
            // Into the point, however long the start takes here: a measurement to stop.
            QTRY_VERIFY_WITH_TIMEOUT(
                testing::runPanel(window)->status().startsWith(QStringLiteral("Measuring")), 30000);
            clock.start();
        } // the destructor cancels and joins the worker
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
