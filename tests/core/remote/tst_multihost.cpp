// SPDX-License-Identifier: Apache-2.0
// The multi-host fixture (netlab.sh): namespaces joined by a bridge, a real sshd in each, one
// an hour ahead on CLOCK_MONOTONIC; the coordinator runs in its own namespace and reaches the
// agents with the real ssh, as it would reach other machines. Root only; skipped with the
// reason elsewhere. Label multihost.
#include "lab/spec/sweepspec.h"
#include "remote/agentchannel.h"
#include "remote/agentprotocol.h"
#include "remote/distributedload.h"
#include "remote/hostsfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <thread>
#include <unistd.h>

using namespace servelab;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString &program, const QStringList &arguments, int timeoutMs = 60000)
{
    QProcess process;
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("%1 did not finish within %2 ms").arg(program).arg(timeoutMs);
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// A row of `hosts check`'s table, by its role ("load 2"): the cells split on runs of spaces.
QStringList rowOf(const QString &table, const QString &role)
{
    for (const QString &line : table.split(u'\n'))
        if (line.startsWith(role + QStringLiteral("  ")))
            return line.split(QRegularExpression(QStringLiteral(" {2,}")));
    return {};
}

} // namespace

class TestMultiHost : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("the multi-host fixture needs root (network namespaces, sshd)");
        QVERIFY(m_dir.isValid());
        m_tag = QStringLiteral("sl%1").arg(::getpid() % 10000);
        const Run up = run(QStringLiteral(SERVELAB_NETLAB),
                           {QStringLiteral("up"), m_dir.filePath(QStringLiteral("lab")), m_tag});
        if (up.exitCode == 77)
            QSKIP(qPrintable(QStringLiteral("the multi-host fixture cannot run here: ") +
                             up.err.trimmed()));
        QVERIFY2(up.exitCode == 0, qPrintable(up.err));
        m_up = true;
        QFile env(m_dir.filePath(QStringLiteral("lab/env")));
        QVERIFY(env.open(QIODevice::ReadOnly));
        for (const QByteArray &line : env.readAll().split('\n'))
            if (const auto at = line.indexOf('='); at > 0)
                m_env.insert(QString::fromUtf8(line.left(at)), QString::fromUtf8(line.mid(at + 1)));
    }

    void cleanupTestCase()
    {
        if (m_up)
            run(QStringLiteral(SERVELAB_NETLAB),
                {QStringLiteral("down"), m_dir.filePath(QStringLiteral("lab")), m_tag});
    }

    // Every agent reached over ssh, the hour ahead measured within 1 ms, a GET from each load
    // namespace to the server's address; and nothing left listening afterwards but sshd.
    void hostsCheckAcrossNamespaces()
    {
        const Run check = hostsCheck(hostsFile({}, {}));
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
        const QStringList server = rowOf(check.out, QStringLiteral("server"));
        const QStringList near = rowOf(check.out, QStringLiteral("load 1"));
        const QStringList ahead = rowOf(check.out, QStringLiteral("load 2"));
        QVERIFY2(server.size() == 9 && near.size() == 9 && ahead.size() == 9,
                 qPrintable(check.out));
        QVERIFY2(server[8].startsWith(QStringLiteral("serving on %1:").arg(m_env["srv"])),
                 qPrintable(check.out));
        QVERIFY2(near[8].startsWith(u"ok, "), qPrintable(check.out));
        QVERIFY2(ahead[8].startsWith(u"ok, "), qPrintable(check.out));
        // Columns: offset ms (6), ± ms (7).
        const double hourMs = 3600.0 * 1000;
        const double offsetAhead = ahead[6].toDouble();
        const double offsetNear = near[6].toDouble();
        qInfo("offsets: load 1 %s ± %s ms, load 2 %s ± %s ms (an hour is %.0f ms)",
              qPrintable(near[6]), qPrintable(near[7]), qPrintable(ahead[6]), qPrintable(ahead[7]),
              hourMs);
        QVERIFY2(std::abs(offsetAhead - hourMs) <= 1.0, qPrintable(ahead.join(u'|')));
        QVERIFY2(ahead[7].toDouble() <= 1.0, qPrintable(ahead.join(u'|')));
        QVERIFY2(std::abs(offsetNear) <= 1.0, qPrintable(near.join(u'|')));

        for (const QString &host :
             {QStringLiteral("srv"), QStringLiteral("a1"), QStringLiteral("a2")}) {
            const Run listening =
                run(QStringLiteral("ip"),
                    {QStringLiteral("netns"), QStringLiteral("exec"), m_tag + u'-' + host,
                     QStringLiteral("ss"), QStringLiteral("-Hltn")});
            QCOMPARE(listening.exitCode, 0);
            for (const QString &line : listening.out.split(u'\n', Qt::SkipEmptyParts))
                QVERIFY2(line.contains(QRegularExpression(QStringLiteral(":22\\s"))),
                         qPrintable(host + QStringLiteral(" listens on more than sshd: ") + line));
        }
    }

    void aWrongKeyIsRefused()
    {
        const Run check = hostsCheck(
            hostsFile({QStringLiteral("-i"), m_dir.filePath(QStringLiteral("lab/wrong_key"))}, {}));
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(check.out.contains(
                     QStringLiteral("problem: load agent 1 (%1) is gone: it ended with "
                                    "exit status 255: root@%1: Permission denied (publickey).")
                         .arg(m_env["a1"])),
                 qPrintable(check.out));
        QVERIFY2(rowOf(check.out, QStringLiteral("load 2")).value(8).startsWith(u"ok, "),
                 qPrintable(check.out));
    }

    void anUnknownHostKeyIsRefused()
    {
        const Run check = hostsCheck(
            hostsFile({}, {QStringLiteral("-o"),
                           QStringLiteral("UserKnownHostsFile=") +
                               m_dir.filePath(QStringLiteral("lab/empty_known_hosts"))}));
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(
            check.out.contains(QStringLiteral("problem: load agent 2 (%1) is gone: it ended with "
                                              "exit status 255: Host key verification failed.")
                                   .arg(m_env["a2"])),
            qPrintable(check.out));
    }

    // A seed-shaped point across the namespaces: the server agent serves 4K on its address,
    // two load agents (one an hour ahead) split 400 requests; the server answered exactly 400.
    // Then a second's load: both agents' samples on one grid; and nothing listens but sshd and
    // the server under test meanwhile.
    void aPointAcrossNamespaces()
    {
        Lab lab;
        QVERIFY(serving(&lab));
        auto &[server, near, ahead, served] = lab;
        QString why;
        const quint16 port = quint16(served.value("port").toInt());
        for (const QString &host :
             {QStringLiteral("srv"), QStringLiteral("a1"), QStringLiteral("a2")})
            for (const QString &line : listening(host))
                QVERIFY2(line.contains(QRegularExpression(QStringLiteral(":(22|%1)\\s").arg(port))),
                         qPrintable(host + QStringLiteral(" listens on ") + line));

        lab::SweepSpec spec;
        spec.model = client::LoadModel::Closed;
        spec.requests = 400;
        spec.concurrency = 4;
        spec.keepAlive = true;
        remote::DistributedLoad load({{near.get(), 1}, {ahead.get(), 1}});
        const auto point = load.run(spec, 4096, m_env["srv"], port);
        QVERIFY2(!point.dnf, qPrintable(point.reason));
        QCOMPARE(point.load.ok, quint64(400));
        QCOMPARE(point.load.latency.count(), quint64(400));
        const auto hour = 3600LL * 1'000'000'000;
        QVERIFY2(std::abs(load.shares()[1].clock.offsetNs - hour) <= 1'000'000,
                 qPrintable(QString::number(load.shares()[1].clock.offsetNs)));
        QVERIFY(std::abs(load.shares()[0].clock.offsetNs) <= 1'000'000);
        qInfo("400 requests from two namespaces, start skew %.3f ms",
              double(load.startSkewNs()) / 1e6);

        lab::SweepSpec timed;
        timed.model = client::LoadModel::Duration;
        timed.durationMs = 1000;
        timed.concurrency = 2;
        timed.clientThreads = 1;
        remote::DistributedLoad second({{near.get(), 1}, {ahead.get(), 1}});
        const auto secondPoint = second.run(timed, 4096, m_env["srv"], port);
        QVERIFY2(!secondPoint.dnf, qPrintable(secondPoint.reason));
        const auto grid = secondPoint.clientSamples.size();
        QVERIFY2(grid >= 8 && grid <= 13, qPrintable(QString::number(grid)));

        const auto stopped = server->call(remote::method::stopServe, {}, 30000, &why);
        QVERIFY2(stopped, qPrintable(why));
        // The duration point's requests in flight at its end may or may not have reached it.
        const qint64 answered = stopped->value("requests").toInteger() - 400;
        QVERIFY2(answered >= qint64(secondPoint.load.completed) &&
                     answered <= qint64(secondPoint.load.completed + secondPoint.load.unfinished),
                 qPrintable(QStringLiteral("%1 answered, %2 completed, %3 in flight")
                                .arg(answered)
                                .arg(secondPoint.load.completed)
                                .arg(secondPoint.load.unfinished)));
    }

    // A load agent's link taken down mid-point: DNF naming it, the other cancelled at once and
    // its part kept; with the link back, the cut-off share loads no more, and the agent ends
    // with its connection.
    void aLinkDownMidPoint()
    {
        Lab lab;
        QVERIFY(serving(&lab));
        auto &[server, near, ahead, served] = lab;
        QString why;
        lab::SweepSpec spec;
        spec.model = client::LoadModel::Duration;
        spec.durationMs = 3000;
        spec.concurrency = 2;
        spec.clientThreads = 1;
        const QString port = QString::number(served.value("port").toInt());
        std::thread cut([&] {
            // Once a1's connections to the server are up (bounded), its link goes.
            QElapsedTimer since;
            since.start();
            while (since.elapsed() < 10000 && !connectedToServer(QStringLiteral("a1"), port))
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            run(QStringLiteral("ip"),
                {QStringLiteral("-n"), m_tag + QStringLiteral("-a1"), QStringLiteral("link"),
                 QStringLiteral("set"), QStringLiteral("eth0"), QStringLiteral("down")});
        });
        remote::DistributedLoad load({{near.get(), 1}, {ahead.get(), 1}});
        QElapsedTimer timer;
        timer.start();
        const auto point =
            load.run(spec, 4096, m_env["srv"], quint16(served.value("port").toInt()));
        cut.join();
        run(QStringLiteral("ip"),
            {QStringLiteral("-n"), m_tag + QStringLiteral("-a1"), QStringLiteral("link"),
             QStringLiteral("set"), QStringLiteral("eth0"), QStringLiteral("up")});
        QVERIFY(point.dnf);
        QVERIFY2(
            point.reason.startsWith(QStringLiteral("load agent 1 (%1) lost ").arg(m_env["a1"])),
            qPrintable(point.reason));
        QVERIFY(load.shares()[1].endedNs > 0); // the other's part came back
        QVERIFY(!load.shares()[1].finished);
        // The link back: a1's share does not go on loading (the cancel got through, or its own
        // deadline came), and the agent ends once its connection does.
        QTRY_VERIFY_WITH_TIMEOUT(!connectedToServer(QStringLiteral("a1"), port), 15000);
        near->end(5000);
        QTRY_VERIFY_WITH_TIMEOUT(!agentRunsIn(QStringLiteral("a1")), 10000);
    }

    // `servelab-cli run --hosts` from the coordinator's namespace: a seed-shaped sweep (ab
    // without keep-alive, 4K..1M) served in srv, loaded from a1 and a2 (an hour ahead); the
    // table, each point's lanes with a2's hour, and the server's fd timeline from srv.
    void aSweepFromRunHosts()
    {
        const QString spec = m_dir.filePath(QStringLiteral("sweep.json"));
        QFile file(spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"servelab": 1, "name": "seed 001 across namespaces",
  "targets": [{"builtin": "epoll+sendfile"}], "sizes": ["4K", "64K", "1M"],
  "client": {"requests": 200, "concurrency": 2}})");
        file.close();
        const QString out = m_dir.filePath(QStringLiteral("sweep-out"));
        const Run sweep =
            run(QStringLiteral("ip"),
                {QStringLiteral("netns"), QStringLiteral("exec"), m_env["coord"],
                 qEnvironmentVariable("SERVELAB_CLI"), QStringLiteral("run"), spec,
                 QStringLiteral("--hosts"), hostsFile({}, {}), QStringLiteral("--out"), out,
                 QStringLiteral("--db"), m_dir.filePath(QStringLiteral("sweep.db"))},
                180000);
        QVERIFY2(sweep.exitCode == 0, qPrintable(sweep.out + sweep.err));
        QVERIFY2(!sweep.out.contains(QStringLiteral("DNF")), qPrintable(sweep.out));
        QFile bundleFile(out + QStringLiteral("/bundle.json"));
        QVERIFY(bundleFile.open(QIODevice::ReadOnly));
        const QJsonArray points =
            QJsonDocument::fromJson(bundleFile.readAll()).object().value("points").toArray();
        QCOMPARE(points.size(), 3);
        const qint64 hour = 3600LL * 1'000'000'000;
        for (const QJsonValue &value : points) {
            const QJsonObject point = value.toObject();
            QCOMPARE(point.value("ok").toInteger(), 200);
            QCOMPARE(point.value("server_requests").toInteger(), 200);
            QVERIFY(!point.value("server_samples").toArray().isEmpty());
            const QJsonArray agents = point.value("agents").toArray();
            QCOMPARE(agents.size(), 2);
            const qint64 offset = agents[1].toObject().value("clock_offset_ns").toInteger();
            QVERIFY2(std::abs(offset - hour) <= 1'000'000, qPrintable(QString::number(offset)));
            QVERIFY(agents[0].toObject().value("finished").toBool());
            QVERIFY(agents[1].toObject().value("finished").toBool());
        }
        qInfo("%s", qPrintable(sweep.out));
    }

private:
    // The three agents of the hosts file, the server agent serving 4K on its address.
    struct Lab
    {
        std::unique_ptr<remote::AgentChannel> server;
        std::unique_ptr<remote::AgentChannel> near;  // load 1
        std::unique_ptr<remote::AgentChannel> ahead; // load 2, an hour ahead
        QJsonObject served;                          // the serve answer: its port
    };
    bool serving(Lab *lab)
    {
        const auto hosts = parsedHosts();
        if (!hosts)
            return false;
        lab->server = agent(*hosts, -1);
        lab->near = agent(*hosts, 0);
        lab->ahead = agent(*hosts, 1);
        QString why;
        const auto served = lab->server->call(
            remote::method::serve,
            {{"address", m_env["srv"]}, {"port", 0}, {"sizes", QJsonArray{4096}}}, 30000, &why);
        if (!served)
            qWarning("%s", qPrintable(why));
        lab->served = served.value_or(QJsonObject());
        return served.has_value();
    }

    // Whether `host` has a connection established to the server's port.
    bool connectedToServer(const QString &host, const QString &port)
    {
        return run(QStringLiteral("ip"),
                   {QStringLiteral("netns"), QStringLiteral("exec"), m_tag + u'-' + host,
                    QStringLiteral("ss"), QStringLiteral("-Htn"), QStringLiteral("state"),
                    QStringLiteral("established"), QStringLiteral("dport"),
                    QStringLiteral("= :") + port})
            .out.contains(m_env["srv"]);
    }

    // Whether a servelab-cli agent runs in the namespace of `host`.
    bool agentRunsIn(const QString &host)
    {
        const Run pids = run(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("pids"),
                                                    m_tag + u'-' + host});
        for (const QString &pid : pids.out.split(u'\n', Qt::SkipEmptyParts)) {
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid.trimmed()));
            if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("agent\0--stdio"))
                return true;
        }
        return false;
    }

    QStringList listening(const QString &host)
    {
        const Run ss = run(QStringLiteral("ip"),
                           {QStringLiteral("netns"), QStringLiteral("exec"), m_tag + u'-' + host,
                            QStringLiteral("ss"), QStringLiteral("-Hltn")});
        return ss.out.split(u'\n', Qt::SkipEmptyParts);
    }

    std::optional<remote::HostsFile> parsedHosts()
    {
        QFile file(hostsFile({}, {}));
        if (!file.open(QIODevice::ReadOnly))
            return std::nullopt;
        QString why;
        auto hosts = remote::HostsFile::parse(file.readAll(), file.fileName(), &why);
        if (!hosts)
            qWarning("%s", qPrintable(why));
        return hosts;
    }

    // An agent of the hosts file, its ssh run from the coordinator's namespace.
    std::unique_ptr<remote::AgentChannel> agent(const remote::HostsFile &hosts, int load)
    {
        const remote::HostEntry &entry = load < 0 ? hosts.server : hosts.load[load];
        auto channel =
            std::make_unique<remote::AgentChannel>(remote::HostsFile::label(entry, load));
        QString why;
        const QStringList command = QStringList{QStringLiteral("ip"), QStringLiteral("netns"),
                                                QStringLiteral("exec"), m_env["coord"]} +
                                    hosts.command(entry);
        if (!channel->start(command, &why) || !channel->call(remote::method::hello,
                                                             {{"protocol", remote::protocolVersion},
                                                              {"version", remote::buildName()}},
                                                             30000, &why))
            qWarning("%s", qPrintable(why));
        return channel;
    }

    // The hosts file: the built-in ssh connector, the fixture's client configuration; extra
    // options for load host 1 and load host 2 (a wrong key, an empty known_hosts).
    QString hostsFile(const QStringList &first, const QStringList &second)
    {
        const QString lab = m_dir.filePath(QStringLiteral("lab"));
        const auto options = [&](const QStringList &extra) {
            QStringList all{QStringLiteral("-F"), lab + QStringLiteral("/ssh_config")};
            if (!extra.contains(QStringLiteral("-i")))
                all << QStringLiteral("-i") << lab + QStringLiteral("/client_key");
            all += extra;
            return QStringLiteral("[\"%1\"]").arg(all.join(QStringLiteral("\", \"")));
        };
        const QString text =
            QStringLiteral(R"({"servelab": 1, "agent": "%1",
  "server": {"host": "%2", "address": "%2", "options": %5},
  "load": [{"host": "%3", "options": %6}, {"host": "%4", "options": %7}]})")
                .arg(qEnvironmentVariable("SERVELAB_CLI"), m_env["srv"], m_env["a1"], m_env["a2"],
                     options({}), options(first), options(second));
        const QString path = m_dir.filePath(QStringLiteral("hosts-%1.json").arg(++m_files));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(text.toUtf8());
        return path;
    }

    // `servelab-cli hosts check` run where a coordinator would be: the coord namespace.
    Run hostsCheck(const QString &file)
    {
        return run(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("exec"),
                                          m_env["coord"], qEnvironmentVariable("SERVELAB_CLI"),
                                          QStringLiteral("hosts"), QStringLiteral("check"), file});
    }

    QTemporaryDir m_dir;
    QString m_tag;
    bool m_up = false;
    QHash<QString, QString> m_env;
    int m_files = 0;
};

QTEST_GUILESS_MAIN(TestMultiHost)
#include "tst_multihost.moc"
