// SPDX-License-Identifier: Apache-2.0
#include "client/clientsample.h"
#include "client/durationclient.h"
#include "lab/spec/docrootgenerator.h"
#include "metrics/clock.h"
#include "servedfiles.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace servelab;

class TestDurationClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;

    client::ClientOptions optionsFor(const char *path) const
    {
        client::ClientOptions o;
        o.port = m_server->port();
        o.path = path;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        server::ServerOptions options;
        options.threads = 2;
        options.maxRequestsPerConnection = 0;
        QString error;
        m_server = testing::serveFiles(m_root.path(), {4096, 1 << 20}, options, &error);
        QVERIFY2(m_server, qPrintable(error));
    }

    // Every request is accounted for: what the client completed (per thread and in all) and
    // what the server answered agree; requests cut off at the end are the only slack.
    void countsAgreeWithTheServer()
    {
        const auto before = m_server->stats();
        auto o = optionsFor("/4K.bin");
        o.concurrency = 8;
        o.expectedBodyLength = 4096;
        client::DurationClient client(o, 3, 700);
        const std::int64_t started = metrics::monotonicMicros();
        const auto r = client.run();
        const double took = double(metrics::monotonicMicros() - started) / 1e6;
        QVERIFY2(r.total.fatalError.empty(), r.total.fatalError.c_str());
        QVERIFY(r.total.completed > 100);
        QCOMPARE(r.total.ok, r.total.completed);
        QCOMPARE(r.total.failed(), 0u);
        QCOMPARE(r.total.bodyBytes, r.total.completed * 4096);
        QCOMPARE(r.perThread.size(), 3u);
        std::uint64_t sum = 0;
        for (const auto &t : r.perThread) {
            QVERIFY(t.completed > 0); // 8 connections over 3 threads: 3, 3, 2 — all busy
            sum += t.completed;
        }
        QCOMPARE(sum, r.total.completed);
        QCOMPARE(r.total.latency.count(), r.total.completed);
        QVERIFY(r.total.unfinished <= 8);
        // Kept alive: one connection each, never more.
        QCOMPARE(r.total.connects, 8u);
        QVERIFY2(took >= 0.69 && took < 1.5, qPrintable(QString::number(took)));
        QVERIFY2(r.total.elapsedSeconds() >= 0.69 && r.total.elapsedSeconds() < 1.5,
                 qPrintable(QString::number(r.total.elapsedSeconds())));
        const auto after = m_server->stats();
        const auto answered = after.requests - before.requests;
        QVERIFY2(answered >= r.total.completed &&
                     answered <= r.total.completed + r.total.unfinished,
                 qPrintable(QStringLiteral("server answered %1, client completed %2 (+%3 cut off)")
                                .arg(answered)
                                .arg(r.total.completed)
                                .arg(r.total.unfinished)));
        QCOMPARE(after.connectionsAccepted - before.connectionsAccepted, 8u);
    }

    // Each thread publishes a sample every 100 ms from its own totals: the samples line up on
    // one grid and add up to the run exactly.
    void samplesAddUpToTheTotals()
    {
        client::SampleQueue queue;
        auto o = optionsFor("/4K.bin");
        o.concurrency = 4;
        o.samples = &queue;
        const auto r = client::DurationClient(o, 2, 1000).run();
        const auto samples = queue.drain();
        std::uint64_t completed = 0, latencies = 0, bytes = 0;
        int perThread[2] = {};
        for (const auto &s : samples) {
            QVERIFY(s.thread == 0 || s.thread == 1);
            ++perThread[s.thread];
            completed += s.completed;
            latencies += s.latency.count();
            bytes += s.bytesRead;
            QVERIFY2(s.intervalMicros <= 150'000,
                     qPrintable(QString::number(s.intervalMicros))); // woken at least every 100 ms
            QVERIFY(s.openConnections <= 2);
        }
        QCOMPARE(completed, r.total.completed);
        QCOMPARE(latencies, r.total.latency.count());
        QCOMPARE(bytes, r.total.bytesRead);
        for (int n : perThread)
            QVERIFY2(n >= 9 && n <= 12, qPrintable(QString::number(n))); // ten, plus the last
    }

    void stopEndsTheRunAtOnce()
    {
        auto o = optionsFor("/1M.bin");
        o.concurrency = 4;
        client::SampleQueue samples;
        o.samples = &samples;
        client::DurationClient client(o, 2, 30'000);
        client::DurationClient::Result r;
        std::thread runner([&] { r = client.run(); });
        // Under way, with requests completed (checked below), however slow the start here.
        std::uint64_t completed = 0;
        const auto drained = [&] {
            for (const auto &s : samples.drain())
                completed += s.completed;
            return completed;
        };
        const bool underWay = QTest::qWaitFor([&] { return drained() > 0; }, 20000);
        const std::int64_t asked = metrics::monotonicMicros();
        client.stop();
        runner.join();
        const double waited = double(metrics::monotonicMicros() - asked) / 1000.0;
        QVERIFY2(underWay, "no request completed within 20 s");
        QVERIFY2(waited < 150, qPrintable(QStringLiteral("%1 ms after stop()").arg(waited)));
        QVERIFY(r.total.completed > 0);
        QCOMPARE(r.total.failed(), 0u); // cut-off requests are not errors in a duration run
    }

    void badSettingsAreRefused_data()
    {
        QTest::addColumn<int>("connections");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("durationMs");
        QTest::newRow("more threads than connections") << 2 << 3 << 1000;
        QTest::newRow("no thread") << 2 << 0 << 1000;
        QTest::newRow("no time") << 2 << 1 << 0;
    }
    void badSettingsAreRefused()
    {
        QFETCH(int, connections);
        QFETCH(int, threads);
        QFETCH(int, durationMs);
        auto o = optionsFor("/4K.bin");
        o.concurrency = connections;
        const auto r = client::DurationClient(o, threads, durationMs).run();
        QVERIFY(r.total.fatalError.find("c >= t >= 1") != std::string::npos);
        QCOMPARE(r.total.completed, 0u);
    }

    void refusedPortIsAnErrorKind()
    {
        client::ClientOptions o;
        o.port = 1; // nothing listens on 127.0.0.1:1
        o.concurrency = 2;
        o.timeoutMs = 1000;
        const auto r = client::DurationClient(o, 1, 200).run();
        QVERIFY(r.total.completed > 0);
        QCOMPARE(r.total.ok, 0u);
        QCOMPARE(r.total.errorCount(client::ErrorKind::ConnectRefused), r.total.completed);
    }
};

QTEST_GUILESS_MAIN(TestDurationClient)
#include "tst_durationclient.moc"
