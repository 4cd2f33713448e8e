// SPDX-License-Identifier: Apache-2.0
// `servelab-cli run --hosts`: a distributed experiment from the command line, its agents local
// children here (connector "local"; tst_multihost runs the same over ssh between namespaces),
// and the one-line refusals of what it cannot do.
#include "clirun.h"
#include "csvrows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

CliRun runCli(const QStringList &arguments)
{
    return runProgram(QStringLiteral(SERVELAB_CLI), arguments, 120000);
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QString &text)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0)
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QString specFile(const QTemporaryDir &dir, const QString &target)
{
    return writeFile(dir, QStringLiteral("spec.json"),
                     QStringLiteral(R"({"servelab": 1, "name": "two load hosts",
  "targets": [%1], "sizes": ["4K", "256K"], "client": {"requests": 40, "concurrency": 2}})")
                         .arg(target));
}

QString hostsFile(const QTemporaryDir &dir)
{
    return writeFile(dir, QStringLiteral("hosts.json"),
                     QStringLiteral(R"({"servelab": 1, "agent": "%1",
  "server": {"host": "srv", "via": "local", "address": "127.0.0.1"},
  "load": [{"host": "a", "via": "local"}, {"host": "b", "via": "local"}]})")
                         .arg(QStringLiteral(SERVELAB_CLI)));
}

} // namespace

class TestRunHosts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The seed's table on stdout, and every export whole: each point's lanes in the bundle,
    // each agent's histogram tagged in latency.hlog, the server's timeline in samples.csv.
    void runsAcrossHostsAndExportsEveryLane()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const CliRun run =
            runCli({QStringLiteral("run"), specFile(dir, QStringLiteral(R"({"builtin": "epoll+copy",
                                    "fd_limit": 64, "options": {"buffer": 32768}})")),
                    QStringLiteral("--hosts"), hostsFile(dir), QStringLiteral("--out"), out,
                    QStringLiteral("--db"), dir.filePath(QStringLiteral("r.db"))});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("\n4K ")) &&
                     run.out.contains(QStringLiteral("\n256K ")),
                 qPrintable(run.out));
        QVERIFY2(!run.out.contains(QStringLiteral("DNF")), qPrintable(run.out + run.err));

        const QJsonObject bundle =
            QJsonDocument::fromJson(readWholeFile(out + QStringLiteral("/bundle.json"))).object();
        QVERIFY(
            bundle.value(QStringLiteral("machine")).toObject().contains(QStringLiteral("hosts")));
        const QJsonArray points = bundle.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 2);
        for (const QJsonValue &point : points) {
            const QJsonArray agents = point.toObject().value(QStringLiteral("agents")).toArray();
            QCOMPARE(agents.size(), 2);
            qint64 ok = 0;
            for (const QJsonValue &agent : agents)
                ok += agent.toObject()
                          .value(QStringLiteral("point"))
                          .toObject()
                          .value(QStringLiteral("ok"))
                          .toInteger();
            QCOMPARE(ok, 40);
        }

        const QByteArray hlog = readWholeFile(out + QStringLiteral("/latency.hlog"));
        for (const char *tag : {"Tag=p0_epoll+copy_4K_r1,", "Tag=p0_epoll+copy_4K_r1_a1,",
                                "Tag=p0_epoll+copy_4K_r1_a2,", "Tag=p1_epoll+copy_256K_r1_a2,"})
            QVERIFY2(hlog.contains(tag), tag);

        // The server's descriptors, sampled on its host, in the timeline.
        const auto rows =
            csvrows::parse(QString::fromUtf8(readWholeFile(out + QStringLiteral("/samples.csv"))));
        QVERIFY(rows.size() > 2);
        const qsizetype fds = rows.first().indexOf(QStringLiteral("fds"));
        QVERIFY2(fds >= 0, qPrintable(rows.first().join(u',')));
        QVERIFY(std::any_of(rows.cbegin() + 1, rows.cend(),
                            [&](const QStringList &row) { return row.value(fds).toInt() > 0; }));
        // The spec's fd limit reached the server on its host.
        const qsizetype limit = rows.first().indexOf(QStringLiteral("fd_limit"));
        QVERIFY(std::any_of(rows.cbegin() + 1, rows.cend(),
                            [&](const QStringList &row) { return row.value(limit) == u"64"; }));
    }

    // A spec's own "hosts" runs it across them too; the database keeps the hosts it ran on.
    void theSpecNamesItsHosts()
    {
        QTemporaryDir dir;
        const QString spec =
            writeFile(dir, QStringLiteral("spec.json"),
                      QStringLiteral(R"({"servelab": 1, "targets": [{"builtin": "epoll+sendfile"}],
  "sizes": ["16K"], "client": {"requests": 20, "concurrency": 2}, "hosts": "%1"})")
                          .arg(hostsFile(dir)));
        const CliRun run = runCli({QStringLiteral("run"), spec, QStringLiteral("--out"),
                                   dir.filePath(QStringLiteral("out")), QStringLiteral("--no-db")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QJsonObject bundle =
            QJsonDocument::fromJson(readWholeFile(dir.filePath(QStringLiteral("out/bundle.json"))))
                .object();
        const QJsonArray points = bundle.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), 1);
        QCOMPARE(points[0].toObject().value(QStringLiteral("agents")).toArray().size(), 2);
        QCOMPARE(bundle.value(QStringLiteral("machine"))
                     .toObject()
                     .value(QStringLiteral("hosts"))
                     .toObject()
                     .value(QStringLiteral("load"))
                     .toArray()
                     .size(),
                 2);
    }

    void refusesWhatItCannotRun_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("hosts");
        QTest::addColumn<QString>("message");
        QTest::newRow("a real server")
            << QStringLiteral("{\"url\": \"http://127.0.0.1:1/\"}") << QString()
            << QStringLiteral("hosts: http://127.0.0.1:1/ is not a built-in mode");
        QTest::newRow("live tuning")
            << QStringLiteral(
                   R"({"builtin": "poller+copy", "tune": [{"at_ms": 10, "threads": 2}]})")
            << QString()
            << QStringLiteral("hosts: poller+copy: live tuning does not reach a server host yet");
        QTest::newRow("a bad hosts file")
            << QStringLiteral(R"({"builtin": "epoll+copy"})")
            << QStringLiteral(R"({"servelab": 1, "server": {"host": "x"}, "load": []})")
            << QStringLiteral("hosts.json:1: server: \"address\" is missing");
    }
    void refusesWhatItCannotRun()
    {
        QFETCH(QString, target);
        QFETCH(QString, hosts);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file =
            hosts.isEmpty() ? hostsFile(dir) : writeFile(dir, QStringLiteral("hosts.json"), hosts);
        const CliRun run = runCli({QStringLiteral("run"), specFile(dir, target),
                                   QStringLiteral("--hosts"), file, QStringLiteral("--no-db")});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestRunHosts)
#include "tst_runhosts.moc"
