// SPDX-License-Identifier: Apache-2.0
#include "remote/agentchannel.h"
#include "remote/agentprotocol.h"
#include "remote/hostcheck.h"
#include "remote/hostsfile.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <poll.h>
#include <vector>

using namespace servelab::remote;

namespace {

QString cli()
{
    return qEnvironmentVariable("SERVELAB_CLI");
}

QJsonObject helloParams()
{
    return {{"protocol", protocolVersion}, {"version", buildName()}};
}

} // namespace

// The coordinator's end against real children: the agent itself, and the ways a connector
// fails (ssh's are an exit status and a line on stderr).
class TestAgentChannel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!cli().isEmpty(), "SERVELAB_CLI names the servelab-cli to run");
    }

    void talksToARealAgent()
    {
        AgentChannel channel("load agent 1 (here)");
        QString why;
        QVERIFY2(channel.start({cli(), "agent", "--stdio"}, &why), qPrintable(why));
        const auto hello = channel.call(method::hello, helloParams(), 10000, &why);
        QVERIFY2(hello, qPrintable(why));
        QCOMPARE(hello->value("version").toString(), buildName());
        QCOMPARE(hello->value("pid").toInteger(), qint64(channel.pid()));
        std::vector<ClockSample> samples;
        for (int i = 0; i < 16; ++i) {
            const auto sample = channel.ping(5000, &why);
            QVERIFY2(sample, qPrintable(why));
            samples.push_back(*sample);
        }
        // The same clock on both ends: the estimate is zero within its own bound.
        const auto offset = estimateClockOffset(samples);
        QVERIFY2(std::abs(offset.offsetNs) <= offset.errorNs,
                 qPrintable(QStringLiteral("%1 ± %2 ns").arg(offset.offsetNs).arg(offset.errorNs)));
        QVERIFY(offset.roundTripNs < 50'000'000);
        const pid_t pid = channel.pid();
        channel.end(5000);
        QVERIFY(!channel.running());
        QCOMPARE(::kill(pid, 0), -1); // it exited at EOF and was reaped
    }

    void anAgentThatDiesIsNamed()
    {
        AgentChannel channel("load agent 2 (there)");
        QString why;
        QVERIFY(channel.start({cli(), "agent", "--stdio"}, &why));
        QVERIFY2(channel.call(method::hello, helloParams(), 10000, &why), qPrintable(why));
        ::kill(channel.pid(), SIGKILL);
        QVERIFY(!channel.call(method::clock, {}, 10000, &why));
        QVERIFY2(why.startsWith("load agent 2 (there) is gone: it ended with signal 9"),
                 qPrintable(why));
        QVERIFY(!channel.running());
        QVERIFY(!channel.call(method::clock, {}, 100, &why));
        QVERIFY2(why.contains("is not running"), qPrintable(why));
    }

    // An agent's last notice and its end can come in one read: the notice is kept.
    void aLastNoticeBeforeTheEndIsKept()
    {
        AgentChannel channel("load agent 3 (last words)");
        const QByteArray notice = MessageFramer::frame(
            R"({"jsonrpc":"2.0","method":"load_done","params":{"requests":7}})");
        QString why;
        QVERIFY(channel.start(
            {"sh", "-c", "printf '%s' \"$1\"; exit 3", "sh", QString::fromUtf8(notice)}, &why));
        // Both the notice and the end are waiting before the channel reads anything.
        pollfd fd{channel.pollFd(), POLLIN, 0};
        QElapsedTimer timer;
        timer.start();
        while (!(fd.revents & POLLHUP) && timer.elapsed() < 10000)
            ::poll(&fd, 1, 100);
        QVERIFY(fd.revents & POLLHUP);
        QVERIFY(!channel.receive(&why));
        QVERIFY2(why.contains("it ended with exit status 3"), qPrintable(why));
        const auto kept = channel.nextNotification();
        QVERIFY(kept);
        QCOMPARE(kept->value("method").toString(), QStringLiteral("load_done"));
        QCOMPARE(kept->value("params").toObject().value("requests").toInt(), 7);
    }

    void connectorFailuresSayWhy_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("reason");
        QTest::newRow("ssh refused")
            << QStringList{"sh", "-c",
                           "echo 'root@10.9.0.2: Permission denied (publickey).' >&2; exit 255"}
            << "is gone: it ended with exit status 255: root@10.9.0.2: Permission denied "
               "(publickey).";
        QTest::newRow("not an agent")
            << QStringList{"sh", "-c", "printf 'HTTP/1.1 200 OK\\r\\n\\r\\n'; exec sleep 30"}
            << "without Content-Length";
        QTest::newRow("silent") << QStringList{"sleep", "30"}
                                << "did not answer hello within 500 ms";
        QTest::newRow("another protocol")
            << QStringList{"sh", "-c",
                           "cat >/dev/null & printf 'Content-Length: "
                           "78\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,"
                           "\"message\":\"protocol mismatch\"}}'; wait"}
            << "refused hello: protocol mismatch";
    }
    void connectorFailuresSayWhy()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, reason);
        AgentChannel channel("server agent (web1)");
        QString why;
        QVERIFY(channel.start(command, &why));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!channel.call(method::hello, helloParams(), 500, &why));
        QVERIFY2(why.contains(reason), qPrintable(why));
        QVERIFY2(why.startsWith("server agent (web1)"), qPrintable(why));
        channel.end(200); // TERM, then KILL: never left running
        QVERIFY(!channel.running());
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void aMissingProgramIsNamed()
    {
        AgentChannel channel("load agent 1 (x)");
        QString why;
        QVERIFY(!channel.start({"/nonexistent/ssh", "x"}, &why));
        QVERIFY2(why.contains("cannot run /nonexistent/ssh"), qPrintable(why));
    }

    void hostsCheckOverLocalAgents()
    {
        QString why;
        const auto hosts = HostsFile::parse(QStringLiteral(R"({"servelab": 1, "agent": "%1",
                "server": {"host": "srv", "via": "local", "address": "127.0.0.1"},
                "load": [{"host": "a", "via": "local"}, {"host": "b", "via": "local", "weight": 3}]})")
                                                .arg(cli())
                                                .toUtf8(),
                                            "local.json", &why);
        QVERIFY2(hosts, qPrintable(why));
        QStringList progress;
        const auto rows = HostCheck::run(*hosts, [&](const QString &line) { progress << line; });
        QCOMPARE(rows.size(), 3);
        for (const auto &row : rows) {
            QVERIFY2(row.problem.isEmpty(), qPrintable(row.problem));
            QCOMPARE(row.version, buildName());
            QVERIFY(row.clock.valid());
            QVERIFY(std::abs(row.clock.offsetNs) <= row.clock.errorNs);
        }
        QVERIFY2(rows[0].get.startsWith("serving on 127.0.0.1:"), qPrintable(rows[0].get));
        QVERIFY2(rows[1].get.startsWith("ok, "), qPrintable(rows[1].get));
        QVERIFY2(rows[2].get.startsWith("ok, "), qPrintable(rows[2].get));
        QCOMPARE(progress.size(), 3);
        const QString table = HostCheck::table(rows);
        QVERIFY2(table.startsWith("role"), qPrintable(table));
        QVERIFY(!table.contains("problem:"));
    }

    void theCommandLine()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath("good.json");
        const QString bad = dir.filePath("bad.json");
        QFile file(good);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"servelab": 1, "agent": "%1",
  "server": {"host": "srv", "via": "local", "address": "127.0.0.1"},
  "load": [{"host": "a", "via": "local"}, {"host": "gone", "via": "nowhere"}],
  "connectors": {"nowhere": ["false", "{agent}"]}})")
                       .arg(cli())
                       .toUtf8());
        file.close();
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write("{\"servelab\": 1,\n \"server\": {\"host\": \"a\"}}");
        badFile.close();

        QProcess check;
        check.start(cli(), {"hosts", "check", good});
        QVERIFY(check.waitForFinished(60000));
        const QString out = QString::fromUtf8(check.readAllStandardOutput());
        QCOMPARE(check.exitCode(), 1); // one host unreachable
        QVERIFY2(out.contains("load 1") && out.contains("ok, "), qPrintable(out));
        QVERIFY2(out.contains(QRegularExpression("load 2 +gone +unreachable")), qPrintable(out));
        QVERIFY2(out.contains("problem: load agent 2 (gone) is gone: it ended with exit status 1"),
                 qPrintable(out));

        check.start(cli(), {"hosts", "check", bad});
        QVERIFY(check.waitForFinished(60000));
        QCOMPARE(check.exitCode(), 2);
        const QString err = QString::fromUtf8(check.readAllStandardError());
        QVERIFY2(err.contains(bad + ":2: server: \"address\" is missing"), qPrintable(err));

        check.start(cli(), {"agent"});
        QVERIFY(check.waitForFinished(60000));
        QCOMPARE(check.exitCode(), 2);
        QVERIFY(check.readAllStandardError().contains("agent --stdio"));
    }
};

QTEST_GUILESS_MAIN(TestAgentChannel)
#include "tst_agentchannel.moc"
