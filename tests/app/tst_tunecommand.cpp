// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"
#include "procstat.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

// `servelab-cli tune` against a running `servelab-cli serve`, over its control socket, as a
// user would from another shell (seed 003's JMX console).
class TestTuneCommand : public QObject
{
    Q_OBJECT

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };
    static Run tune(const QStringList &arguments)
    {
        QProcess p;
        p.start(QStringLiteral(SERVELAB_CLI), QStringList{QStringLiteral("tune")} + arguments);
        Run run;
        if (!p.waitForFinished(30000))
            return run;
        run.code = p.exitCode();
        run.out = QString::fromUtf8(p.readAllStandardOutput());
        run.err = QString::fromUtf8(p.readAllStandardError());
        return run;
    }

    QTemporaryDir m_dir;
    ChildProcess m_serve;
    QString m_control;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile file(m_dir.filePath(QStringLiteral("4K.bin")));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(4096));
        m_control = m_dir.filePath(QStringLiteral("control.sock"));
        m_serve.start(QStringLiteral(SERVELAB_CLI),
                      {QStringLiteral("serve"), QStringLiteral("--root"), m_dir.path(),
                       QStringLiteral("--mode"), QStringLiteral("multiplex+sendfile"),
                       QStringLiteral("--threads"), QStringLiteral("1"),
                       QStringLiteral("--control"), m_control});
        QStringList lines;
        while (lines.size() < 3 && (m_serve.canReadLine() || m_serve.waitForReadyRead(10000)))
            lines << QString::fromUtf8(m_serve.readLine()).trimmed();
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith(QStringLiteral("listening on ")), qPrintable(lines[0]));
        QCOMPARE(lines[2], QStringLiteral("control ") + m_control);
    }
    void cleanupTestCase()
    {
        ::kill(pid_t(m_serve.processId()), SIGTERM);
        QVERIFY(m_serve.waitForFinished(10000));
        QCOMPARE(m_serve.exitCode(), 0);
        QVERIFY(!QFile::exists(m_control)); // the socket goes with the server
    }

    void getPrintsWhatCanChange()
    {
        const Run run = tune({QStringLiteral("--control"), m_control});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("options threads=1 ")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral(" max-downloads=1000")));
        QVERIFY(!run.out.contains(QStringLiteral("backlog="))); // fixed once it listens
    }

    void setChangesTheRunningServer()
    {
        const int before = procstat::threadCount(m_serve.processId());
        Run run = tune({QStringLiteral("--control"), m_control, QStringLiteral("threads=4"),
                        QStringLiteral("chunk=256K")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("ok threads=4 ")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral(" chunk=256K")));
        QTRY_COMPARE_WITH_TIMEOUT(procstat::threadCount(m_serve.processId()), before + 3, 5000);
        // By its pid, at the default place: this server was told another path, so not found.
        run = tune({QStringLiteral("--pid"), QString::number(m_serve.processId())});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("no control socket at ")), qPrintable(run.err));
        run = tune({QStringLiteral("--control"), m_control, QStringLiteral("--stats")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("stats ")), qPrintable(run.out));
    }

    // Refused with one line naming the option and what to do; the server goes on unchanged.
    void badChangesAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        const QString c = QStringLiteral("--control");
        QTest::newRow("fixed") << QStringList{c, m_control, QStringLiteral("backlog=5")} << 2
                               << QStringLiteral("backlog cannot change while the server runs");
        QTest::newRow("unknown") << QStringList{c, m_control, QStringLiteral("banana=1")} << 2
                                 << QStringLiteral("--banana is not a server option");
        QTest::newRow("bad value") << QStringList{c, m_control, QStringLiteral("threads=x")} << 2
                                   << QStringLiteral("--threads wants a whole number");
        QTest::newRow("the server refuses")
            << QStringList{c, m_control, QStringLiteral("open-file-cache=10")} << 1
            << QStringLiteral("--open-file-cache turns on or off only as the server starts");
        QTest::newRow("no server") << QStringList{QStringLiteral("threads=2")} << 2
                                   << QStringLiteral("give the server as --control PATH or --pid");
        QTest::newRow("nobody there") << QStringList{c, m_dir.filePath(QStringLiteral("none.sock")),
                                                     QStringLiteral("threads=2")}
                                      << 1 << QStringLiteral("no control socket at ");
        QTest::newRow("no such process")
            << QStringList{QStringLiteral("--pid"), QStringLiteral("2147483646"),
                           QStringLiteral("threads=2")}
            << 1 << QStringLiteral("no process 2147483646 is running");
    }
    void badChangesAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, reason);
        const Run before = tune({QStringLiteral("--control"), m_control});
        const Run run = tune(arguments);
        QCOMPARE(run.code, code);
        QVERIFY2(run.err.contains(reason), qPrintable(run.err));
        QCOMPARE(tune({QStringLiteral("--control"), m_control}).out, before.out);
    }
};

QTEST_GUILESS_MAIN(TestTuneCommand)
#include "tst_tunecommand.moc"
