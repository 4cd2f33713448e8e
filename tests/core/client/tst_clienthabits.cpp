// SPDX-License-Identifier: Apache-2.0
#include "client/closedclient.h"
#include "client/durationclient.h"
#include "client/rateclient.h"
#include "lab/spec/docrootgenerator.h"
#include "servedfiles.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

// The realism knobs every model takes (seed 002: connections closed sometimes, think times
// between requests on kept-alive connections, a mix of files), checked against what the
// built-in server saw.
class TestClientHabits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;

    client::ClientOptions keptAlive(std::uint64_t requests, int concurrency) const
    {
        client::ClientOptions o;
        o.port = m_server->port();
        o.path = "/4K.bin";
        o.requests = requests;
        o.concurrency = concurrency;
        o.keepAlive = true;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        server::ServerOptions options;
        options.maxRequestsPerConnection = 0;
        QString error;
        m_server = testing::serveFiles(m_root.path(), {4096, 65536}, options, &error);
        QVERIFY2(m_server, qPrintable(error));
    }

    void closeAfterKRequests()
    {
        const auto before = m_server->stats().connectionsAccepted;
        auto o = keptAlive(30, 1);
        o.requestsPerConnection = 3;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 30u);
        QCOMPARE(r.connects, 10u);
        QCOMPARE(m_server->stats().connectionsAccepted - before, 10u);
    }

    void closeWithAProbability()
    {
        auto o = keptAlive(400, 2);
        o.closeProbability = 1.0;
        QCOMPARE(client::ClosedClient(o).run().connects, 400u); // every response closes
        o.closeProbability = 0.25;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 400u);
        // One connect per close plus the first of each slot: about 100 + 2.
        QVERIFY2(r.connects >= 70 && r.connects <= 135, qPrintable(QString::number(r.connects)));
        // The rate model takes it too.
        o.closeProbability = 1.0;
        o.concurrency = 2;
        const auto rate = client::RateClient(o, 1, 500, 200).run();
        QVERIFY(rate.total.ok > 80);
        QVERIFY(rate.total.connects >= rate.total.ok);
    }

    void thinkBetweenRequestsOnAKeptAliveConnection()
    {
        auto o = keptAlive(10, 1);
        std::string error;
        QVERIFY(client::ThinkTime::parse("fixed:30ms", &o.keepAliveThink, &error));
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 10u);
        QCOMPARE(r.connects, 1u);
        // Nine thinks of 30 ms between ten requests (none after the last).
        QVERIFY2(r.elapsedMicros >= 270'000 && r.elapsedMicros < 600'000,
                 qPrintable(QString::number(r.elapsedMicros)));
        // Latency does not include the think time.
        QVERIFY(r.latency.max() < 25'000);
        // A duration run thinks as well: 2 connections × 1 s / 50 ms is about 40 requests.
        QVERIFY(client::ThinkTime::parse("fixed:50ms", &o.keepAliveThink, &error));
        o.concurrency = 2;
        const auto d = client::DurationClient(o, 1, 1000).run();
        QVERIFY2(d.total.completed >= 30 && d.total.completed <= 42,
                 qPrintable(QString::number(d.total.completed)));
    }

    // A server that closes idle kept-alive connections (100 ms, found by its 250 ms deadline
    // scan) while the client thinks (400 ms): each request goes on a fresh connection, and none
    // of them is an error.
    void aServerClosingIdleConnectionsIsNoError()
    {
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        options.keepAliveTimeoutMs = 100;
        std::string why;
        auto impatient = server::createServer(options, &why);
        QVERIFY2(impatient && impatient->start(&why), why.c_str());
        auto o = keptAlive(4, 1);
        o.port = impatient->port();
        std::string error;
        QVERIFY(client::ThinkTime::parse("fixed:400ms", &o.keepAliveThink, &error));
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.failed(), 0u);
        QCOMPARE(r.ok, 4u);
        QCOMPARE(r.connects, 4u);
        QCOMPARE(impatient->stats().requests, 4u);
    }

    void aMixOfFilesByWeight()
    {
        auto o = keptAlive(800, 2);
        o.mix = {{"/4K.bin", 3}, {"/64K.bin", 1}};
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 800u);
        // bodyBytes = small × 4096 + large × 65536, small + large = 800.
        const auto large = (r.bodyBytes - 800 * 4096) / (65536 - 4096);
        QCOMPARE((r.bodyBytes - 800 * 4096) % (65536 - 4096), 0u);
        QVERIFY2(large >= 160 && large <= 240, qPrintable(QString::number(large))); // 1 in 4
    }

    void aBadMixIsRefused()
    {
        auto o = keptAlive(1, 1);
        o.mix = {{"4K.bin", 1}};
        const auto r = client::ClosedClient(o).run();
        QVERIFY(r.fatalError.find("starting with /") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestClientHabits)
#include "tst_clienthabits.moc"
