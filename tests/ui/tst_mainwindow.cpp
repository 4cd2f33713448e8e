#include "lab/resultexport.h"
#include "mainwindow.h"
#include "resultstablemodel.h"
#include "throughputchart.h"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
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

        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun());
        QVERIFY(window.isRunning());
        QVERIFY(!window.startRun()); // one run at a time
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(window.statusMessage()));
        QVERIFY(!window.isRunning());

        QCOMPARE(window.chart()->pointCount(QStringLiteral("epoll+sendfile")), 3);
        QCOMPARE(window.chart()->dnfCount(), 0);
        QCOMPARE(window.results()->rowCount(), 3);
        QVERIFY(window.chart()->valueAxisTitle().endsWith(QStringLiteral("/s")));

        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(window.exportChartPng(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 200 && image.height() > 150);

        const QString csv = dir.filePath(QStringLiteral("results.csv"));
        QVERIFY2(window.exportCsv(csv, &error), qPrintable(error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const auto lines = QString::fromUtf8(file.readAll()).trimmed().split(u'\n');
        QCOMPARE(lines.size(), 4);
        const auto header = lines[0].split(u',');
        QCOMPARE(header, lab::csvColumns());
        const int kib = static_cast<int>(header.indexOf(QStringLiteral("kib_per_s")));
        for (int i = 1; i < 4; ++i) {
            const auto fields = lines[i].split(u',');
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
        QVERIFY2(finished.first().first().toBool(), qPrintable(window.statusMessage()));
        QCOMPARE(window.chart()->pointCount(QStringLiteral("lighttpd")), 2);
    }

    void exportFailureNamesTheProblem()
    {
        ui::MainWindow window;
        QString error;
        QVERIFY(!window.exportChartPng(QStringLiteral("/nonexistent-dir/chart.png"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/chart.png")), qPrintable(error));
        QVERIFY(!window.exportCsv(QStringLiteral("/nonexistent-dir/x.csv"), &error));
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
        QVERIFY(problem.contains(QStringLiteral("concurrency")));
        const auto buttons = window.findChildren<QPushButton *>();
        auto runButton = std::find_if(buttons.begin(), buttons.end(),
                                      [](auto *b) { return b->text() == QStringLiteral("Run"); });
        QVERIFY(runButton != buttons.end());
        QVERIFY(!(*runButton)->isEnabled());
        QVERIFY(!window.startRun());
        auto *label = window.findChild<QLabel *>(QStringLiteral("problem"));
        QVERIFY(label && label->text().contains(QStringLiteral("concurrency")));
    }

    void closingDuringARunStopsIt()
    {
        QElapsedTimer clock;
        clock.start();
        {
            ui::MainWindow window;
            lab::SweepSpec spec = lab::SweepSpec::defaults();
            spec.sizes = {4096};
            spec.requests = 10'000'000;
            window.setSpec(spec);
            QVERIFY(window.startRun());
            QTest::qWait(300);
        } // the destructor cancels and joins the worker
        QVERIFY(clock.elapsed() < 5000);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
