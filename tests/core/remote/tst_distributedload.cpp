// SPDX-License-Identifier: Apache-2.0
#include "remote/agentchannel.h"
#include "remote/agentprotocol.h"
#include "remote/distributedload.h"
#include "remote/loadsplit.h"

#include "client/clientsample.h"
#include "lab/spec/docrootgenerator.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/sweepspec.h"
#include "remote/clocksync.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>
#include <mutex>
#include <numeric>
#include <poll.h>
#include <thread>

using namespace servelab;
using namespace servelab::remote;

namespace {

constexpr quint64 size4K = 4096;

std::unique_ptr<AgentChannel> startAgent(const QString &name)
{
    auto channel = std::make_unique<AgentChannel>(name);
    QString why;
    if (!channel->start({qEnvironmentVariable("SERVELAB_CLI"), "agent", "--stdio"}, &why) ||
        !channel->call(method::hello, {{"protocol", protocolVersion}, {"version", buildName()}},
                       10000, &why))
        qWarning("%s", qPrintable(why));
    return channel;
}

lab::SweepSpec closedSpec(quint64 requests, int concurrency)
{
    lab::SweepSpec spec;
    spec.model = client::LoadModel::Closed;
    spec.requests = requests;
    spec.concurrency = concurrency;
    spec.keepAlive = true;
    spec.sizes = {size4K};
    return spec;
}

lab::SweepSpec durationSpec(int ms, int connections)
{
    lab::SweepSpec spec;
    spec.model = client::LoadModel::Duration;
    spec.durationMs = ms;
    spec.concurrency = connections;
    spec.clientThreads = 1;
    spec.sizes = {size4K};
    return spec;
}

std::uint64_t openConnections(const server::Server &server)
{
    const auto stats = server.stats();
    return stats.connectionsAccepted - stats.connectionsClosed;
}

} // namespace

// Points split among real agents (servelab-cli agent --stdio, here as local children) against
// a server in this process, whose counters say what reached it.
class TestDistributedLoad : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QString why;
        QVERIFY2(lab::DocRootGenerator::ensure(m_root.path(), {size4K}, &why), qPrintable(why));
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        options.threads = 2;
        std::string error;
        m_server = server::createServer(options, &error);
        QVERIFY2(m_server && m_server->start(&error), error.c_str());
    }

    void cleanupTestCase()
    {
        if (m_server)
            m_server->stop();
    }

    void sharesSumToTheSpec()
    {
        QList<int> agents;
        QList<qint64> phases;
        const std::vector<double> weights{1, 2, 3};
        const auto shares = splitShares(closedSpec(1000, 10), weights, &agents, &phases);
        QCOMPARE(shares.size(), 3);
        quint64 requests = 0;
        int connections = 0;
        for (const auto &s : shares) {
            requests += s.requests;
            connections += s.concurrency;
            QVERIFY(s.concurrency <= int(s.requests));
        }
        QCOMPARE(requests, quint64(1000));
        QCOMPARE(connections, 10);
        QCOMPARE(shares[2].requests, quint64(500));

        // One connection between two hosts: one share, with every request.
        const std::vector<double> two{1, 1};
        const auto one = splitShares(closedSpec(10, 1), two, &agents, &phases);
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].requests, quint64(10));
        QCOMPARE(agents, (QList<int>{0}));

        // A rate split: the rates sum to the offered one, the second share a slot later.
        lab::SweepSpec rate = durationSpec(1000, 8);
        rate.model = client::LoadModel::Rate;
        rate.ratePerSecond = 1001;
        rate.clientThreads = 4;
        const auto rates = splitShares(rate, two, &agents, &phases);
        QCOMPARE(rates[0].ratePerSecond + rates[1].ratePerSecond, qint64(1001));
        QCOMPARE(phases, (QList<qint64>{0, 1'000'000'000 / 1001}));
        QCOMPARE(rates[0].clientThreads + rates[1].clientThreads, 4);
    }

    // 300 requests over weights 1 and 2: the server answered exactly 300, the shares made 100
    // and 200, and the merged histogram holds every one of them.
    void aClosedPointOverTwoAgents()
    {
        auto first = startAgent("load agent 1 (a)");
        auto second = startAgent("load agent 2 (b)");
        const auto before = m_server->stats().requests;
        DistributedLoad load({{first.get(), 1}, {second.get(), 2}});
        const auto point = load.run(closedSpec(300, 6), size4K, "127.0.0.1", m_server->port());
        QVERIFY2(!point.dnf, qPrintable(point.reason));
        QCOMPARE(point.load.ok, quint64(300));
        QCOMPARE(point.load.latency.count(), quint64(300));
        QCOMPARE(point.load.concurrency, 6);
        QCOMPARE(m_server->stats().requests - before, quint64(300));
        QCOMPARE(load.shares().size(), 2);
        QCOMPARE(load.shares()[0].point.load.ok, quint64(100));
        QCOMPARE(load.shares()[1].point.load.ok, quint64(200));
        client::LatencyHistogram both = load.shares()[0].point.load.latency;
        both.merge(load.shares()[1].point.load.latency);
        QCOMPARE(point.load.latency.valueAtPercentile(99), both.valueAtPercentile(99));
        for (const auto &share : load.shares()) {
            QVERIFY(share.finished);
            // One host: the offsets are zero within their bounds.
            QVERIFY(std::abs(share.clock.offsetNs) <= share.clock.errorNs);
        }
        qInfo("start skew %.3f ms", double(load.startSkewNs()) / 1e6);
        QVERIFY(load.startSkewNs() < 100'000'000);
    }

    // Two agents' samples land on one 100 ms grid from T0: about ten slots for a second's load,
    // not twenty interleaved ones.
    void samplesOnOneGrid()
    {
        auto first = startAgent("load agent 1 (a)");
        auto second = startAgent("load agent 2 (b)");
        DistributedLoad load({{first.get(), 1}, {second.get(), 1}});
        const auto point = load.run(durationSpec(1000, 4), size4K, "127.0.0.1", m_server->port());
        QVERIFY2(!point.dnf, qPrintable(point.reason));
        const auto grid = point.clientSamples.size();
        QVERIFY2(grid >= 8 && grid <= 13, qPrintable(QString::number(grid)));
        std::uint64_t ok = 0;
        for (const auto &s : point.clientSamples)
            ok += s.ok;
        QVERIFY2(ok <= point.load.ok && ok + 100 >= point.load.ok,
                 qPrintable(QStringLiteral("%1 of %2").arg(ok).arg(point.load.ok)));
    }

    // While a point runs, each agent's ticks bring its samples (a live view): the first well
    // before the end, and never more requests than the point's.
    void samplesArriveWhileThePointRuns()
    {
        struct Sink final : client::SampleSink
        {
            std::mutex mutex;
            qint64 firstNs = 0;
            std::uint64_t completed = 0;
            void publish(client::ClientSample sample) override
            {
                std::lock_guard lock(mutex);
                if (!firstNs)
                    firstNs = monotonicNanos();
                completed += sample.completed;
            }
        } sink;
        auto first = startAgent("load agent 1 (a)");
        auto second = startAgent("load agent 2 (b)");
        DistributedLoad load({{first.get(), 1}, {second.get(), 1}});
        load.setLiveSink(&sink);
        const auto point = load.run(durationSpec(1500, 2), size4K, "127.0.0.1", m_server->port());
        const qint64 endedNs = monotonicNanos();
        QVERIFY2(!point.dnf, qPrintable(point.reason));
        QVERIFY(sink.firstNs > 0);
        QVERIFY2(endedNs - sink.firstNs > 700'000'000,
                 qPrintable(QString::number((endedNs - sink.firstNs) / 1'000'000)));
        QVERIFY(sink.completed > 0);
        QVERIFY2(sink.completed <= point.load.completed,
                 qPrintable(QStringLiteral("%1 live, %2 in all")
                                .arg(sink.completed)
                                .arg(point.load.completed)));
    }

    void aLateAgentMakesThePointDnf()
    {
        auto first = startAgent("load agent 1 (a)");
        DistributedLoad load({{first.get(), 1}});
        load.setLeadMs(0);
        const auto point = load.run(closedSpec(10, 1), size4K, "127.0.0.1", m_server->port());
        QVERIFY(point.dnf);
        QVERIFY2(point.reason.startsWith("load agent 1 (a) could not start with the others") &&
                     point.reason.contains("late: the start time passed"),
                 qPrintable(point.reason));
    }

    // An agent killed mid-point: DNF naming it and the moment, the other cancelled at once
    // (well before the 5 s it was asked for), its data kept, and no connection left open.
    void aLostAgentMakesThePointDnf()
    {
        auto first = startAgent("load agent 1 (a)");
        auto second = startAgent("load agent 2 (b)");
        const pid_t victim = second->pid();
        const auto before = m_server->stats().requests;
        std::thread killer([&] {
            // Until the load reached the server (bounded), then the agent goes.
            for (int i = 0; i < 1000 && m_server->stats().requests < before + 200; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            ::kill(victim, SIGKILL);
        });
        DistributedLoad load({{first.get(), 1}, {second.get(), 1}});
        QElapsedTimer timer;
        timer.start();
        const auto point = load.run(durationSpec(5000, 2), size4K, "127.0.0.1", m_server->port());
        const auto took = timer.elapsed();
        killer.join();
        QVERIFY(point.dnf);
        QVERIFY2(point.reason.startsWith("load agent 2 (b) lost ") &&
                     point.reason.contains(" s into the point: ") &&
                     point.reason.contains("signal 9"),
                 qPrintable(point.reason));
        QVERIFY2(took < 4500, qPrintable(QString::number(took)));
        QVERIFY(load.shares()[0].endedNs > 0); // the other's data came, cut short
        QVERIFY(!load.shares()[0].finished);
        QVERIFY(load.shares()[0].point.load.ok > 0);
        QTRY_COMPARE_WITH_TIMEOUT(openConnections(*m_server), std::uint64_t(0), 5000);
    }

    // The agent's own guards: at its deadline with nobody telling it, it stops the load and
    // exits; at the end of its input, too.
    void anAgentStopsByItself()
    {
        auto agent = startAgent("load agent 1 (a)");
        lab::SweepSpec spec = durationSpec(30000, 1);
        spec.target = QStringLiteral("url:http://127.0.0.1:%1/").arg(m_server->port());
        lab::ExperimentSpec experiment;
        experiment.targets = {spec};
        const qint64 now = monotonicNanos();
        QString why;
        QVERIFY2(agent->call(method::load,
                             {{"spec", QString::fromUtf8(experiment.toJson())},
                              {"size", qint64(size4K)},
                              {"host", "127.0.0.1"},
                              {"port", int(m_server->port())},
                              {"start_at_ns", now + 100'000'000},
                              {"deadline_ns", now + 600'000'000}},
                             5000, &why),
                 qPrintable(why));
        std::optional<QJsonObject> done;
        QElapsedTimer timer;
        timer.start();
        while (!done && timer.elapsed() < 10000) {
            const bool open = agent->receive(&why);
            while (auto notice = agent->nextNotification())
                if (notice->value("method").toString() == QLatin1String(method::loadDone))
                    done = notice->value("params").toObject();
            if (!open) // it may end right after its notice, before this loop reads it
                break;
            pollfd fd{agent->pollFd(), POLLIN, 0};
            ::poll(&fd, 1, 50);
        }
        QVERIFY2(done, qPrintable(why));
        QVERIFY(done->value("stopped_at_deadline").toBool());
        const qint64 ran =
            done->value("ended_ns").toInteger() - done->value("started_ns").toInteger();
        QVERIFY2(ran < 2'000'000'000, qPrintable(QString::number(ran)));

        // Nobody stopped it, so nobody listens: the agent ends by itself, and says why.
        QTRY_VERIFY_WITH_TIMEOUT(!agent->receive(&why), 5000);
        QVERIFY2(agent->stderrText().contains("the load reached its deadline unstopped"),
                 qPrintable(agent->stderrText()));

        // Another agent, a load, then its input ends: it stops the load and exits, unsignalled.
        auto second = startAgent("load agent 2 (b)");
        QVERIFY2(second->call(method::load,
                              {{"spec", QString::fromUtf8(experiment.toJson())},
                               {"size", qint64(size4K)},
                               {"host", "127.0.0.1"},
                               {"port", int(m_server->port())},
                               {"start_at_ns", monotonicNanos() + 50'000'000},
                               {"deadline_ns", monotonicNanos() + 60'000'000'000}},
                              5000, &why),
                 qPrintable(why));
        QTRY_VERIFY_WITH_TIMEOUT(openConnections(*m_server) > 0, 5000);
        timer.restart();
        second->end(5000);
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QTRY_COMPARE_WITH_TIMEOUT(openConnections(*m_server), std::uint64_t(0), 5000);
    }

private:
    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;
};

QTEST_GUILESS_MAIN(TestDistributedLoad)
#include "tst_distributedload.moc"
