// SPDX-License-Identifier: Apache-2.0
// `--version` of both programs: version, git revision, Qt, syntax highlighting, io_uring; from a
// terminal without a display too (the window's binary answers --version and --help before it
// needs one).

#include "childprocess.h"
#include "lab/results/buildinfo.h"

#include <QProcessEnvironment>
#include <QTest>

namespace {

struct Output
{
    int code = -1;
    QString out;
    QString err;
};

Output runWithoutDisplay(const QString &program, const QStringList &arguments)
{
    auto environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    ChildProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    Output o;
    if (!process.waitForFinished(30000))
        return o;
    o.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    o.out = QString::fromUtf8(process.readAllStandardOutput());
    o.err = QString::fromUtf8(process.readAllStandardError());
    return o;
}

} // namespace

class TestVersionInfo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void versionNamesEveryPart_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("name");
        QTest::newRow("cli") << QStringLiteral(SERVELAB_CLI) << QStringLiteral("servelab-cli");
        QTest::newRow("gui") << QStringLiteral(SERVELAB_GUI) << QStringLiteral("servelab");
    }
    void versionNamesEveryPart()
    {
        QFETCH(QString, program);
        QFETCH(QString, name);
        const Output o = runWithoutDisplay(program, {QStringLiteral("--version")});
        QVERIFY2(o.code == 0, qPrintable(o.err));
        const auto info = servelab::lab::BuildInfo::current();
        QVERIFY(!info.revision.isEmpty());
        const QStringList lines = o.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0],
                 QStringLiteral("%1 %2 (git %3)")
                     .arg(name, QStringLiteral(SERVELAB_VERSION_EXPECTED), info.revision));
        QVERIFY2(lines[1].startsWith(QStringLiteral("  Qt: ") + QString::fromLatin1(qVersion())),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("  syntax highlighting: ")),
                 qPrintable(lines[2]));
        QVERIFY2(lines[3].startsWith(QStringLiteral("  io_uring: ")), qPrintable(lines[3]));
    }

    // The io_uring line says what `servelab-cli modes` lists.
    void uringLineAgreesWithTheModes()
    {
        const Output modes =
            runWithoutDisplay(QStringLiteral(SERVELAB_CLI), {QStringLiteral("modes")});
        QCOMPARE(modes.code, 0);
        const bool listed = modes.out.contains(QStringLiteral("uring+"));
        const QString line = servelab::lab::BuildInfo::current().uring;
        QCOMPARE(line.contains(QStringLiteral("available here")), listed);
    }

    void windowHelpNeedsNoDisplay()
    {
        const Output o =
            runWithoutDisplay(QStringLiteral(SERVELAB_GUI), {QStringLiteral("--help")});
        QVERIFY2(o.code == 0, qPrintable(o.err));
        QVERIFY(o.out.contains(QStringLiteral("--export-png")));
        const Output bad = runWithoutDisplay(
            QStringLiteral(SERVELAB_GUI), {QStringLiteral("--version"), QStringLiteral("--bogus")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("bogus")), qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestVersionInfo)
#include "tst_versioninfo.moc"
