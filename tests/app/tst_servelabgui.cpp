// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestServelabGui : public QObject
{
    Q_OBJECT
private:
    static int run(const QStringList &arguments, QString *err)
    {
        // A desktop session has a runtime folder; without one Qt adds a warning line of its own.
        static QTemporaryDir runtime;
        QFile::setPermissions(runtime.path(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        ChildProcess process;
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
        static QTemporaryDir data; // runs are kept in a database of this test's own
        environment.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(SERVELAB_GUI), arguments);
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            return -1;
        }
        *err = QString::fromUtf8(process.readAllStandardError());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

private Q_SLOTS:
    void exportsChartAndDataThenQuits()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        const QString csv = dir.filePath(QStringLiteral("results.csv"));
        QString err;
        const int code =
            run({QStringLiteral("--sizes"), QStringLiteral("4K,64K"), QStringLiteral("-n"),
                 QStringLiteral("20"), QStringLiteral("--export-png"), png,
                 QStringLiteral("--export-csv"), csv},
                &err);
        QVERIFY2(code == 0, qPrintable(err));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QFile data(csv);
        QVERIFY(data.open(QIODevice::ReadOnly));
        QCOMPARE(data.readAll().count('\n'), 3);
    }

    // A kept run shown again and any chart written without running anything.
    void opensResultsAndExportsAChart()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        const QString png = dir.filePath(QStringLiteral("fds.png"));
        QString err;
        QCOMPARE(run({QStringLiteral("--sizes"), QStringLiteral("4K,64K"), QStringLiteral("-n"),
                      QStringLiteral("20"), QStringLiteral("--db"), db,
                      QStringLiteral("--export-csv"), dir.filePath(QStringLiteral("a.csv"))},
                     &err),
                 0);
        QVERIFY2(run({QStringLiteral("--open"), db, QStringLiteral("--chart"),
                      QStringLiteral("fds"), QStringLiteral("--export-png"), png},
                     &err) == 0,
                 qPrintable(err));
        QVERIFY(!QImage(png).isNull());
        const QString svg = dir.filePath(QStringLiteral("latency.svg"));
        QVERIFY2(run({QStringLiteral("--open"), db, QStringLiteral("--chart"),
                      QStringLiteral("latency"), QStringLiteral("--export-png"), svg},
                     &err) == 0,
                 qPrintable(err));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly) && file.readAll().contains("<svg"));
        QCOMPARE(run({QStringLiteral("--open"), dir.filePath(QStringLiteral("none.db")),
                      QStringLiteral("--export-png"), png},
                     &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("none.db does not exist")), qPrintable(err));
    }

    void badArgumentsExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--frobnicate")} << QStringLiteral("frobnicate");
        QTest::newRow("bad sizes") << QStringList{QStringLiteral("--sizes"), QStringLiteral("huge")}
                                   << QStringLiteral("'huge'");
        QTest::newRow("bad -n") << QStringList{QStringLiteral("-n"), QStringLiteral("0")}
                                << QStringLiteral("-n wants a whole number from 1 to");
        QTest::newRow("c above n")
            << QStringList{QStringLiteral("-n"), QStringLiteral("2"), QStringLiteral("-c"),
                           QStringLiteral("3")}
            << QStringLiteral("servelab: -c 3 cannot exceed -n (2), as in ab");
        QTest::newRow("bad chart") << QStringList{QStringLiteral("--chart"), QStringLiteral("pie")}
                                   << QStringLiteral("'pie'");
        QTest::newRow("bad preset")
            << QStringList{QStringLiteral("--spec"), QStringLiteral("no-such-preset")}
            << QStringLiteral("no-such-preset");
    }
    void badArgumentsExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        QString err;
        QCOMPARE(run(arguments, &err), 2);
        QVERIFY2(err.contains(mentions), qPrintable(err));
        QCOMPARE(err.count(u'\n'), 1);
    }

    void exportToAnUnwritablePlaceFailsWithReason()
    {
        QString err;
        const int code = run({QStringLiteral("--sizes"), QStringLiteral("4K"), QStringLiteral("-n"),
                              QStringLiteral("5"), QStringLiteral("--export-png"),
                              QStringLiteral("/nonexistent-dir/chart.png")},
                             &err);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("/nonexistent-dir/chart.png")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestServelabGui)
#include "tst_servelabgui.moc"
