// SPDX-License-Identifier: Apache-2.0
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

// `servelab-cli compare` on real runs: the same spec twice is no significant difference, one
// server thread against four on a CPU-bound setting is named as the regression, with exit 1
// under --fail-if-slower and JUnit XML a parser reads back.
class TestCompareCommand : public QObject
{
    Q_OBJECT

    struct Run
    {
        int code = -1;
        QString out;
        QString err;
    };
    static Run cli(const QStringList &arguments)
    {
        QProcess p;
        p.start(QStringLiteral(SERVELAB_CLI), arguments);
        Run run;
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished(5000);
            return run;
        }
        run.code = p.exitCode();
        run.out = QString::fromUtf8(p.readAllStandardOutput());
        run.err = QString::fromUtf8(p.readAllStandardError());
        return run;
    }

    QTemporaryDir m_dir;
    QString spec(const QString &name, const QString &json)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(json.toUtf8());
        return path;
    }
    QString db() const { return m_dir.filePath(QStringLiteral("runs.db")); }
    // Runs a spec into the test's database; its experiment id, or 0.
    int runSpec(const QString &path)
    {
        const Run run = cli({QStringLiteral("run"), path, QStringLiteral("--db"), db()});
        if (run.code != 0)
            qWarning("run failed: %s", qPrintable(run.err));
        return run.code == 0 ? ++m_runs : 0;
    }
    int m_runs = 0;

private Q_SLOTS:
    void sameSpecTwiceIsNoDifference()
    {
        // A rate run: the server keeps up, so KiB/s is the rate offered, whatever else this
        // machine does meanwhile (a closed run drifts with it, and that drift is a real
        // difference).
        const QString path = spec(QStringLiteral("same"), QStringLiteral(R"({"servelab": 1,
 "name": "same twice", "targets": [{"builtin": "epoll+sendfile"}], "sizes": ["4K"],
 "repetitions": 3, "client": {"model": "rate", "rate": 500, "seconds": 1, "concurrency": 4}})"));
        const int first = runSpec(path);
        const int second = runSpec(path);
        QVERIFY(first && second);
        const QString junit = m_dir.filePath(QStringLiteral("same.xml"));
        const Run compare =
            cli({QStringLiteral("compare"), QString::number(first), QString::number(second),
                 QStringLiteral("--db"), db(), QStringLiteral("--fail-if-slower"),
                 QStringLiteral("5%"), QStringLiteral("--junit"), junit});
        QVERIFY2(compare.code == 0, qPrintable(compare.out + compare.err));
        QVERIFY2(compare.out.contains(QStringLiteral("no significant difference")),
                 qPrintable(compare.out));
        QVERIFY2(compare.out.contains(QStringLiteral("machine: the same facts")),
                 qPrintable(compare.out));
        QVERIFY(compare.err.isEmpty());
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QXmlStreamReader reader(&xml);
        int cases = 0;
        int failures = 0;
        while (!reader.atEnd()) {
            reader.readNext();
            if (reader.isStartElement() && reader.name() == u"testcase")
                ++cases;
            if (reader.isStartElement() && reader.name() == u"failure")
                ++failures;
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QCOMPARE(cases, 1);
        QCOMPARE(failures, 0);
    }

    // A verdict on measured numbers: the four-thread runs here vary by up to a third between
    // repetitions, which now and then widens the interval past 1. Not in the default suite
    // (a number from this noisy machine must not fail CI): ctest --preset soak runs it as
    // soak_comparethreads.
    void oneThreadAgainstFourIsTheRegression()
    {
        if (qEnvironmentVariableIsEmpty("SERVELAB_MEASURED"))
            QSKIP("a verdict on this machine's numbers: SERVELAB_MEASURED=1 (soak_comparethreads)");
        // One server thread copying through a 4 KiB buffer is CPU-bound; four use both cores.
        // Six repetitions after a warm-up: a first cold repetition alone once widened the
        // interval past 1 with four.
        const QString json = QStringLiteral(R"({"servelab": 1, "name": "cpu-bound",
 "targets": [{"builtin": "epoll+copy", "threads": %1, "options": {"buffer": 4096}}],
 "sizes": ["1M"], "repetitions": 6, "warmup_requests": 100,
 "client": {"model": "closed", "requests": 400, "concurrency": 16, "keep_alive": true}})");
        const int four = runSpec(spec(QStringLiteral("four"), json.arg(4)));
        const int one = runSpec(spec(QStringLiteral("one"), json.arg(1)));
        QVERIFY(four && one);
        const QString junit = m_dir.filePath(QStringLiteral("threads.xml"));
        const Run compare =
            cli({QStringLiteral("compare"), db() + QStringLiteral("#%1").arg(four),
                 db() + QStringLiteral("#%1").arg(one), QStringLiteral("--fail-if-slower"),
                 QStringLiteral("5%"), QStringLiteral("--junit"), junit});
        QVERIFY2(compare.code == 1, qPrintable(compare.out + compare.err));
        QVERIFY2(compare.out.contains(QStringLiteral(" slower")), qPrintable(compare.out));
        const QStringList lines = compare.err.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 1);
        // The two runs differ in their setup (threads): named so, not a regression of a build.
        QVERIFY2(compare.out.contains(QStringLiteral("target epoll+copy: threads: 4 → 1")),
                 qPrintable(compare.out));
        QVERIFY2(
            lines[0].startsWith(QStringLiteral("slower with the other setup: epoll+copy 1M: ")),
            qPrintable(lines[0]));
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QXmlStreamReader reader(&xml);
        QString failure;
        int failuresAttribute = -1;
        while (!reader.atEnd()) {
            reader.readNext();
            if (reader.isStartElement() && reader.name() == u"testsuite")
                failuresAttribute = reader.attributes().value(QStringLiteral("failures")).toInt();
            if (reader.isStartElement() && reader.name() == u"failure")
                failure = reader.attributes().value(QStringLiteral("message")).toString();
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QCOMPARE(failuresAttribute, 1);
        QVERIFY2(failure.startsWith(QStringLiteral("slower: ratio 0.")), qPrintable(failure));
        // Without the gate, the same comparison exits 0: a report, not a verdict on the build.
        QCOMPARE(cli({QStringLiteral("compare"), db() + QStringLiteral("#%1").arg(four),
                      db() + QStringLiteral("#%1").arg(one)})
                     .code,
                 0);
    }

    // Two runs that differ only in keep-alive: that difference is listed first, before the
    // machine and any ratio, and a verdict between them is marked as between setups.
    void aSetupDifferenceIsListedFirst()
    {
        const QString json = QStringLiteral(R"({"servelab": 1, "name": "same name",
 "targets": [{"builtin": "epoll+sendfile"}], "sizes": ["4K"], "repetitions": 2,
 "client": {"model": "closed", "requests": 200, "concurrency": 4, "keep_alive": %1}})");
        const int closing =
            runSpec(spec(QStringLiteral("closing"), json.arg(QStringLiteral("false"))));
        const int kept = runSpec(spec(QStringLiteral("kept"), json.arg(QStringLiteral("true"))));
        QVERIFY(closing && kept);
        const Run compare = cli({QStringLiteral("compare"), QString::number(closing),
                                 QString::number(kept), QStringLiteral("--db"), db()});
        QVERIFY2(compare.code == 0, qPrintable(compare.out + compare.err));
        const QStringList lines = compare.out.split(u'\n');
        QVERIFY2(lines.size() > 4, qPrintable(compare.out));
        QVERIFY2(lines[0].startsWith(QStringLiteral("baseline:  #%1 same name").arg(closing)),
                 qPrintable(lines[0]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("setups that differ")),
                 qPrintable(compare.out));
        QCOMPARE(lines[3], QStringLiteral("  client.keep_alive: false → true"));
        QVERIFY2(lines[4].startsWith(QStringLiteral("machine")), qPrintable(compare.out));
        const QString row = lines.filter(QStringLiteral("epoll+sendfile")).value(0);
        QVERIFY2(!row.contains(u"faster") || row.contains(QStringLiteral("(other setup)")),
                 qPrintable(row));
    }

    void badRunsExitTwo()
    {
        const Run missing =
            cli({QStringLiteral("compare"), m_dir.filePath(QStringLiteral("nope.json")),
                 m_dir.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.contains(QStringLiteral("no such run")), qPrintable(missing.err));
        const Run share = cli({QStringLiteral("compare"), QStringLiteral("1"), QStringLiteral("2"),
                               QStringLiteral("--fail-if-slower"), QStringLiteral("lots")});
        QCOMPARE(share.code, 2);
        QVERIFY2(share.err.contains(QStringLiteral("--fail-if-slower")), qPrintable(share.err));
    }
};

QTEST_GUILESS_MAIN(TestCompareCommand)
#include "tst_comparecommand.moc"
