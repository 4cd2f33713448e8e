// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"
#include "client/clientsample.h"
#include "client/rateclient.h"
#include "lab/spec/docrootgenerator.h"
#include "servedfiles.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

using namespace servelab;

class TestRateClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;

private Q_SLOTS:
    void initTestCase()
    {
        server::ServerOptions options;
        options.maxRequestsPerConnection = 0;
        QString error;
        m_server = testing::serveFiles(m_root.path(), {4096}, options, &error);
        QVERIFY2(m_server, qPrintable(error));
    }

    // The offered rate is what the server gets, whatever its speed: every slot of the schedule
    // is a request completed, still in flight at the end, or counted missed.
    void achievedRateIsTheOfferedOne()
    {
        const auto before = m_server->stats().requests;
        client::ClientOptions o;
        o.port = m_server->port();
        o.path = "/4K.bin";
        o.concurrency = 8;
        client::SampleQueue samples;
        o.samples = &samples;
        const double offered = 2000;
        const auto run = client::RateClient(o, 2, 1500, offered).run();
        QVERIFY2(run.total.fatalError.empty(), run.total.fatalError.c_str());
        QCOMPARE(run.total.failed(), 0u);
        const double scheduled = offered * 1.5;
        const auto accounted = double(run.total.completed + run.total.unfinished + run.missed);
        QVERIFY2(std::abs(accounted - scheduled) <= 8,
                 qPrintable(QStringLiteral("%1 slots accounted for, %2 offered")
                                .arg(accounted)
                                .arg(scheduled)));
        QVERIFY2(std::abs(run.total.requestsPerSecond() - offered) / offered < 0.02,
                 qPrintable(QString::number(run.total.requestsPerSecond())));
        // Both histograms hold every answered request; corrected is never below uncorrected.
        QCOMPARE(run.total.latency.count(), run.total.completed);
        QCOMPARE(run.uncorrected.count(), run.total.completed);
        QVERIFY(run.total.latency.valueAtPercentile(50) >= run.uncorrected.valueAtPercentile(50));
        QCOMPARE(run.total.connects, 8u);
        // The live samples of a rate run sum to it, and show the offered rate as it went.
        std::uint64_t sampled = 0;
        for (const auto &sample : samples.drain())
            sampled += sample.completed;
        QCOMPARE(sampled, run.total.completed);
        const auto answered = m_server->stats().requests - before;
        QVERIFY(answered >= run.total.completed &&
                answered <= run.total.completed + run.total.unfinished);
    }

    // Coordinated omission, shown: a server that stops for 1 s (SIGSTOP, like a long GC pause)
    // holds only the few requests in flight, so latency measured from the actual send barely
    // notices; measured from the intended send time, a third of the run waited.
    void aStallShowsInTheCorrectedLatencyOnly()
    {
        ChildProcess serve;
        serve.start(QStringLiteral(SERVELAB_CLI),
                    {QStringLiteral("serve"), QStringLiteral("--root"), m_root.path(),
                     QStringLiteral("--port"), QStringLiteral("0"),
                     QStringLiteral("--max-requests"), QStringLiteral("0")});
        QVERIFY(serve.waitForReadyRead(10000));
        const auto match = QRegularExpression(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"))
                               .match(QString::fromUtf8(serve.readLine()));
        QVERIFY(match.hasMatch());
        client::ClientOptions o;
        o.port = match.captured(1).toUShort();
        o.path = "/4K.bin";
        o.concurrency = 8;
        client::SampleQueue samples;
        o.samples = &samples;
        const auto pid = static_cast<pid_t>(serve.processId());
        std::atomic<bool> flowing{false};
        std::thread stall([&] {
            // Once requests are being answered (at most 10 s: the run lasts 3), however long
            // the client's start took here ...
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!flowing && std::chrono::steady_clock::now() < until) {
                for (const auto &sample : samples.drain())
                    flowing = flowing || sample.completed > 0;
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            // ... the stimulus: half a second of them, then the server stopped for 1 s.
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            ::kill(pid, SIGSTOP);
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            ::kill(pid, SIGCONT);
        });
        const auto run = client::RateClient(o, 1, 3000, 1000).run();
        stall.join();
        QVERIFY2(flowing, "no request was answered");
        serve.terminate();
        QVERIFY(serve.waitForFinished(5000));
        QVERIFY2(run.total.fatalError.empty(), run.total.fatalError.c_str());
        const double correctedP99 = double(run.total.latency.valueAtPercentile(99)) / 1000;
        const double uncorrectedP99 = double(run.uncorrected.valueAtPercentile(99)) / 1000;
        qInfo("p99 corrected %.1f ms, uncorrected %.1f ms; max %.1f ms; %llu late", correctedP99,
              uncorrectedP99, double(run.uncorrected.max()) / 1000,
              static_cast<unsigned long long>(run.late));
        QVERIFY2(correctedP99 > 700, qPrintable(QString::number(correctedP99)));
        QVERIFY2(uncorrectedP99 < 200, qPrintable(QString::number(uncorrectedP99)));
        QVERIFY(run.uncorrected.max() > 700'000); // the requests caught in the stall did wait
        QVERIFY(run.late > 500);                  // the slots of the stall went out late
    }

    void badSettingsAreRefused()
    {
        client::ClientOptions o;
        o.port = m_server->port();
        o.concurrency = 2;
        for (double rate : {0.0, -5.0}) {
            const auto run = client::RateClient(o, 1, 1000, rate).run();
            QVERIFY(run.total.fatalError.find("rate") != std::string::npos);
            QCOMPARE(run.total.completed, 0u);
        }
    }
};

QTEST_GUILESS_MAIN(TestRateClient)
#include "tst_rateclient.moc"
