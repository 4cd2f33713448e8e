// SPDX-License-Identifier: Apache-2.0
#include "lab/results/bottleneck.h"
#include "lab/results/pointcost.h"

#include <QTest>

using namespace servelab;
using Kind = lab::Bottleneck::Kind;

namespace {

metrics::ResourceUse use(std::int64_t cpuMicros, int busyThreads)
{
    metrics::ResourceUse u;
    for (const auto &f : metrics::ResourceUse::fields)
        u.*f.member = 0;
    u.userMicros = cpuMicros / 4;
    u.systemMicros = cpuMicros - u.userMicros;
    u.busyThreads = busyThreads;
    u.syscalls = -1;
    return u;
}

// One second of a closed run of 1000 requests at concurrency `c`, every one ok, each side
// with the CPU time given (µs over that second) on its busy threads.
lab::PointResult point(std::int64_t clientCpu, int clientThreads, std::int64_t serverCpu,
                       int serverThreads, int c = 8)
{
    lab::PointResult p;
    p.model = client::LoadModel::Closed;
    p.load.completed = p.load.ok = 1000;
    p.load.connects = std::uint64_t(c);
    p.load.concurrency = c;
    p.load.elapsedMicros = 1'000'000;
    p.load.bytesRead = 1000 * 4096;
    p.load.clientUse = use(clientCpu, clientThreads);
    p.load.clientThreads = clientThreads;
    p.serverUse = use(serverCpu, serverThreads);
    return p;
}

} // namespace

class TestBottleneck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void judge_data()
    {
        QTest::addColumn<lab::PointResult>("point");
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("figure"); // a part of the reason

        QTest::newRow("client thread saturated, server light")
            << point(950'000, 1, 300'000, 1) << 2 << int(Kind::ClientBound)
            << "client 1 busy thread at 95%";
        // On a loaded machine a side that wanted a core got part of it and waited for the rest.
        lab::PointResult waited = point(500'000, 1, 200'000, 1);
        waited.load.clientUse.waitMicros = 450'000;
        QTest::newRow("client wanted a core, got half")
            << waited << 2 << int(Kind::ClientBound)
            << "client 1 busy thread at 95% of a core (ran 50%, waited for a CPU 45%)";
        lab::PointResult light = point(300'000, 1, 200'000, 1, 64);
        light.load.clientUse.waitMicros = 100'000;
        QTest::newRow("a little waiting is not busy")
            << light << 2 << int(Kind::Unclear) << "client 1 busy thread at 40% of a core";
        QTest::newRow("server thread saturated, client light")
            << point(400'000, 1, 990'000, 1) << 2 << int(Kind::ServerCpuBound)
            << "server 1 busy thread at 99%";
        QTest::newRow("both saturated: the larger share")
            << point(900'000, 1, 950'000, 1) << 2 << int(Kind::ServerCpuBound)
            << "the machine at 93% of 2 cores";
        QTest::newRow("machine shared by many threads, client larger")
            << point(1'100'000, 4, 800'000, 4) << 2 << int(Kind::ClientBound) << "shared";
        QTest::newRow("idle at c=1") << point(200'000, 1, 250'000, 1, 1) << 2
                                     << int(Kind::LatencyBound) << "1 connection for 2 cores";
        // One request in flight: latency-bound however busy the machine, unless a side is.
        QTest::newRow("c=1 with both sides working")
            << point(700'000, 1, 700'000, 1, 1) << 2 << int(Kind::LatencyBound)
            << "per request: client 700.0 µs and server 700.0 µs of CPU in 1000.0 µs";
        QTest::newRow("c=4 on 2 cores") << point(500'000, 1, 600'000, 1, 4) << 2
                                        << int(Kind::LatencyBound) << "4 connections for 2 cores";
        QTest::newRow("c=4 on 1 core, server busy")
            << point(100'000, 1, 900'000, 1, 4) << 1 << int(Kind::ServerCpuBound)
            << "server 1 busy thread at 90%";
        QTest::newRow("idle at c=64 is not latency-bound")
            << point(200'000, 1, 250'000, 1, 64) << 2 << int(Kind::Unclear)
            << "neither side reached 85% of its cores (client 1 busy thread at 20%";
        QTest::newRow("unclear names the connections")
            << point(200'000, 1, 250'000, 1, 64) << 2 << int(Kind::Unclear)
            << "64 connections are more than 2 per core; no errors";

        lab::PointResult failing = point(100'000, 1, 100'000, 1);
        failing.load.ok = 900;
        failing.load.errors[std::size_t(client::ErrorKind::ConnectRefused)] = 100;
        QTest::newRow("errors") << failing << 2 << int(Kind::Errors)
                                << "10% of the requests failed";

        lab::PointResult emfile = failing;
        emfile.server.acceptEmfile = 12;
        QTest::newRow("emfile before errors")
            << emfile << 2 << int(Kind::FdLimit) << "12 times with EMFILE";

        lab::PointResult full = point(100'000, 1, 100'000, 1);
        metrics::ProcessSample sample;
        sample.alive = true;
        sample.total = 1020;
        sample.fdLimit = 1024;
        full.serverSamples = {sample};
        QTest::newRow("descriptors at the limit")
            << full << 2 << int(Kind::FdLimit) << "1020 descriptors of its limit of 1024";

        lab::PointResult queued = point(300'000, 1, 300'000, 1, 50);
        metrics::ProcessSample sockets;
        sockets.alive = true;
        sockets.byType = true;
        sockets.sockets = 11; // a pool of 10 and the listener
        sockets.total = 20;
        queued.serverSamples = {sockets};
        QTest::newRow("connections left in the accept queue")
            << queued << 2 << int(Kind::ConnectionLimit)
            << "at most 11 sockets for the client's 50";

        lab::PointResult unread = point(900'000, 1, 0, 1);
        unread.serverUse = {};
        QTest::newRow("server not read")
            << unread << 2 << int(Kind::Unclear) << "server's CPU time could not be read";

        lab::PointResult rate = point(200'000, 1, 200'000, 1);
        rate.model = client::LoadModel::Rate;
        rate.offeredPerSecond = 1000;
        QTest::newRow("offered rate met")
            << rate << 2 << int(Kind::RatePaced) << "100% of the offered 1000 req/s served";
        lab::PointResult behind = rate;
        behind.offeredPerSecond = 2000;
        QTest::newRow("offered rate missed, nothing busy")
            << behind << 2 << int(Kind::Unclear) << "only 50% of the offered 2000 req/s";
    }

    void judge()
    {
        QFETCH(lab::PointResult, point);
        QFETCH(int, cores);
        QFETCH(int, kind);
        QFETCH(QString, figure);
        const auto verdict = lab::Bottleneck::judge(point, cores);
        QCOMPARE(verdict.name(), QString::fromLatin1(lab::Bottleneck::row(Kind(kind)).name));
        QVERIFY2(verdict.why.contains(figure), qPrintable(verdict.why));
    }

    void namesAreFoundBack()
    {
        for (const auto &row : lab::Bottleneck::rows()) {
            QCOMPARE(&lab::Bottleneck::row(row.kind), &row);
            QCOMPARE(lab::Bottleneck::find(QString::fromLatin1(row.name)), &row);
        }
        QCOMPARE(lab::Bottleneck::find(QStringLiteral("slow")), nullptr);
    }

    // Cost per request: over the server's own count where it keeps one, else the client's;
    // unknown figures and DNF points give none.
    void costPerRequest()
    {
        lab::PointResult p = point(500'000, 1, 250'000, 1);
        QCOMPARE(lab::PointCost::serverCpu().of(p), 250.0);
        QCOMPARE(lab::PointCost::clientCpu().of(p), 500.0);
        p.serverCounted = true;
        p.server.requests = 500;
        QCOMPARE(lab::PointCost::serverCpu().of(p), 500.0);
        QCOMPARE(lab::PointCost::serverCpu().text(p), QStringLiteral("500.0"));
        p.serverUse.syscalls = 4000;
        for (const auto &cost : lab::PointCost::rows())
            if (QByteArrayView(cost.key) == "server_syscalls_per_mib")
                QCOMPARE(cost.of(p), 4000 / (1000 * 4096 / 1048576.0));
        p.load.clientUse.syscalls = -1;
        for (const auto &cost : lab::PointCost::rows())
            if (QByteArrayView(cost.key) == "client_syscalls_per_req")
                QVERIFY(cost.text(p).isEmpty());
        p.dnf = true;
        QVERIFY(lab::PointCost::serverCpu().of(p) < 0);
    }
};

QTEST_GUILESS_MAIN(TestBottleneck)
#include "tst_bottleneck.moc"
