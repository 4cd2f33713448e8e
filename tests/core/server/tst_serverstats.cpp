// SPDX-License-Identifier: Apache-2.0
#include "server/serverstats.h"

#include <QTest>

#include <set>
#include <string>

using namespace servelab::server;

namespace {

// Every counter its own value (the i-th: 100 + i), through the field table.
ServerStats everyCounterSet()
{
    ServerStats s;
    std::uint64_t n = 100;
    for (const auto &f : serverStatsFields())
        s.*f.total = n++;
    return s;
}

} // namespace

class TestServerStats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The table covers the whole block: setting every row leaves no member at 0.
    void theTableCoversEveryCounter()
    {
        static_assert(sizeof(ServerStats) % sizeof(std::uint64_t) == 0);
        QCOMPARE(serverStatsFields().size(), sizeof(ServerStats) / sizeof(std::uint64_t));
        std::set<std::string> keys;
        for (const auto &f : serverStatsFields())
            QVERIFY2(keys.insert(f.key).second, f.key);
    }

    void theLineRoundTrips()
    {
        const ServerStats want = everyCounterSet();
        const std::string line = want.toLine();
        QVERIFY(line.starts_with("stats connections=100 requests=101 "));
        const auto got = ServerStats::fromLine(line);
        QVERIFY(got);
        for (const auto &f : serverStatsFields())
            QVERIFY2((*got).*f.total == want.*f.total, f.key);
    }

    void otherLinesAreNotStats()
    {
        QVERIFY(!ServerStats::fromLine("serving epoll+sendfile on 127.0.0.1:8080"));
        QVERIFY(!ServerStats::fromLine("statsd requests=3"));
        const auto some = ServerStats::fromLine("stats  requests=3 future_counter=9 emfile=x bare");
        QVERIFY(some);
        QCOMPARE(some->requests, 3u);
        QCOMPARE(some->acceptEmfile, 0u); // not a number: left at 0
        QCOMPARE(some->connectionsAccepted, 0u);
    }

    void mergingAddsTotalsAndKeepsTheLongestWait()
    {
        ServerStats a = everyCounterSet();
        ServerStats b = everyCounterSet();
        b.handoffWaitMaxMicros = 1;
        const ServerStats one = everyCounterSet();
        a += b;
        QCOMPARE(a.requests, 2 * one.requests);
        QCOMPARE(a.queued, 2 * one.queued);
        QCOMPARE(a.handoffWaitMaxMicros, one.handoffWaitMaxMicros);
    }

    void snapshotReadsEveryCounter()
    {
        AtomicServerStats live;
        AtomicServerStats::bump(live.requests, 7);
        AtomicServerStats::bump(live.downloadsFinished, 2);
        live.countResponse(404);
        const ServerStats s = live.snapshot();
        QCOMPARE(s.requests, 8u);
        QCOMPARE(s.responses4xx, 1u);
        QCOMPARE(s.downloadsFinished, 2u);
        QCOMPARE(s.queued, 0u);
    }
};

QTEST_GUILESS_MAIN(TestServerStats)
#include "tst_serverstats.moc"
