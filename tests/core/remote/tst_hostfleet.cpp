// SPDX-License-Identifier: Apache-2.0
// A distributed experiment on one machine: the hosts file's agents are local children
// (connector "local"), the server agent serves on 127.0.0.1, and ExperimentRunner drives them
// through HostFleet exactly as `run --hosts` does over ssh (tst_multihost does that part).
#include "lab/results/resultstore.h"
#include "lab/run/experimentrunner.h"
#include "lab/targets/target.h"
#include "remote/hostfleet.h"
#include "remote/hostsfile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace servelab;

namespace {

constexpr quint64 requests = 90;

lab::ExperimentSpec experiment(const QString &targets)
{
    lab::ExperimentSpec spec;
    QStringList errors;
    const QByteArray text = QStringLiteral(R"({"servelab": 1, "name": "across hosts",
        "targets": [%1], "sizes": ["4K", "64K", "1M"],
        "client": {"requests": %2, "concurrency": 3}})")
                                .arg(targets)
                                .arg(requests)
                                .toUtf8();
    if (!lab::ExperimentSpec::parse(text, QStringLiteral("hosts.json"), &spec, &errors))
        qFatal("%s", qPrintable(errors.join(u'\n')));
    return spec;
}

// A server host and two load hosts, weights 1 and 2, every agent `agent`.
std::shared_ptr<remote::HostFleet> fleet(const QString &agent)
{
    const QByteArray text = QStringLiteral(R"({"servelab": 1, "agent": "%1",
        "server": {"host": "srv", "via": "local", "address": "127.0.0.1"},
        "load": [{"host": "a", "via": "local"}, {"host": "b", "via": "local", "weight": 2}]})")
                                .arg(agent)
                                .toUtf8();
    QString why;
    auto hosts = remote::HostsFile::parse(text, QStringLiteral("hosts.json"), &why);
    if (!hosts)
        qFatal("%s", qPrintable(why));
    return std::make_shared<remote::HostFleet>(std::move(*hosts));
}

} // namespace

class TestHostFleet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Three sizes, seed-shaped (ab without keep-alive, split 30/60): each point whole — the
    // merged counts and histogram, both agents' lanes, the server's own count of requests, its
    // fd timeline from its host on this clock, no descriptor kept — and all of it read back
    // from the database.
    void aSweepAcrossAgents()
    {
        QTemporaryDir dir;
        lab::ExperimentRunner runner(
            experiment(QStringLiteral(R"({"builtin": "epoll+sendfile"})")));
        runner.setHosts(fleet(qEnvironmentVariable("SERVELAB_CLI")));
        runner.setDatabase(dir.filePath(QStringLiteral("results.db")));
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Done);
        QCOMPARE(runner.results().size(), 3);
        for (const lab::PointResult &p : runner.results()) {
            QVERIFY2(!p.dnf, qPrintable(p.reason));
            QCOMPARE(p.load.ok, requests);
            QCOMPARE(p.load.latency.count(), requests);
            QCOMPARE(p.load.bodyBytes, requests * p.sizeBytes);
            QVERIFY(p.serverCounted);
            QCOMPARE(p.server.requests, requests);
            QVERIFY2(p.fdsLeftOpen.isEmpty(), qPrintable(p.fdsLeftOpen.join(u'\n')));
            QVERIFY(p.serverUse.known());
            QCOMPARE(p.agents.size(), std::size_t(2));
            QCOMPARE(p.agents[0].load.ok, requests / 3);
            QCOMPARE(p.agents[1].load.ok, requests * 2 / 3);
            QCOMPARE(p.agents[0].load.latency.count() + p.agents[1].load.latency.count(), requests);
            for (const lab::AgentLane &lane : p.agents) {
                QVERIFY2(lane.finished, qPrintable(lane.agent));
                QVERIFY(lane.cores > 0);
                QVERIFY(std::abs(lane.clockOffsetNs) <= std::max<qint64>(lane.clockErrorNs, 1));
            }
            QVERIFY(p.agents[0].agent.startsWith(QStringLiteral("load agent 1 (a)")));
            // The server's timeline: from its host, with descriptors by type, inside the point
            // (its first sample at most a second before T0 and its last before the end).
            QVERIFY(!p.serverSamples.empty());
            const auto typed = std::find_if(p.serverSamples.cbegin(), p.serverSamples.cend(),
                                            [](const auto &s) { return s.byType; });
            QVERIFY(typed != p.serverSamples.cend());
            QVERIFY(typed->total > 0 && typed->threads > 0);
            QVERIFY2(std::abs(p.serverSamples.front().atMicros - p.startedAtMicros) < 1'000'000,
                     qPrintable(QStringLiteral("%1 vs T0 %2")
                                    .arg(p.serverSamples.front().atMicros)
                                    .arg(p.startedAtMicros)));
            QVERIFY(p.serverSamples.back().atMicros <=
                    p.startedAtMicros + p.load.elapsedMicros + 1'000'000);
        }
        const QJsonObject hosts = runner.machine().value(QStringLiteral("hosts")).toObject();
        QCOMPARE(hosts.value(QStringLiteral("load")).toArray().size(), 2);
        QCOMPARE(hosts.value(QStringLiteral("server")).toObject().value(QStringLiteral("agent")),
                 QStringLiteral("server agent (srv)"));

        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("results.db")), &error), qPrintable(error));
        const auto kept = store.points(runner.experimentId(), &error);
        QCOMPARE(kept.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(kept[i].agents.size(), std::size_t(2));
            QCOMPARE(kept[i].agents[1].load.latency.count(), requests * 2 / 3);
            QCOMPARE(kept[i].agents[1].samples.size(),
                     runner.results()[i].agents[1].samples.size());
            QCOMPARE(kept[i].serverSamples.size(), runner.results()[i].serverSamples.size());
        }
        QVERIFY(store.experiments().first().machine.contains(QStringLiteral("hosts")));
    }

    // What a server host cannot run yet is DNF at every size, with the reason.
    void aRealServerIsDnfWithTheReason()
    {
        lab::ExperimentRunner runner(
            experiment(QStringLiteral("{\"url\": \"http://127.0.0.1:1/\"}")));
        runner.setHosts(fleet(qEnvironmentVariable("SERVELAB_CLI")));
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Done);
        QCOMPARE(runner.results().size(), 3);
        for (const lab::PointResult &p : runner.results()) {
            QVERIFY(p.dnf);
            QVERIFY2(
                p.reason.contains(QStringLiteral("only built-in servers run on a server host")),
                qPrintable(p.reason));
        }
    }

    // A stop that comes before a point's load exists (a cancel during the warm-up or the
    // server's watch) still holds: the load that follows ends at once, cancelled.
    void aStopBeforeTheLoadHolds()
    {
        auto hosts = fleet(qEnvironmentVariable("SERVELAB_CLI"));
        QString why;
        QVERIFY2(hosts->connect(&why), qPrintable(why));
        const lab::ExperimentSpec spec = experiment(QStringLiteral(R"({"builtin": "epoll+copy"})"));
        const auto target = hosts->target(spec.targets.first());
        QVERIFY2(target->start(&why), qPrintable(why));
        hosts->stopLoad();
        lab::SweepSpec long_ = spec.targets.first();
        long_.model = client::LoadModel::Duration;
        long_.durationMs = 30000;
        QElapsedTimer clock;
        clock.start();
        lab::PointResult point;
        hosts->runLoad(long_, 4096, target->port(), &point);
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(point.dnf);
        QCOMPARE(point.reason, QStringLiteral("cancelled"));
        target->stop();
    }

    // An agent that cannot be started fails the run before any point, naming the host.
    void anAgentNotReachedFailsTheRun()
    {
        QTemporaryDir dir;
        lab::ExperimentRunner runner(experiment(QStringLiteral(R"({"builtin": "epoll+copy"})")));
        runner.setHosts(fleet(QStringLiteral("/nonexistent/servelab-cli")));
        runner.setDatabase(dir.filePath(QStringLiteral("results.db")));
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Failed);
        QVERIFY2(runner.finishReason().startsWith(QStringLiteral("server agent (srv): cannot run")),
                 qPrintable(runner.finishReason()));
        QVERIFY(runner.results().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHostFleet)
#include "tst_hostfleet.moc"
