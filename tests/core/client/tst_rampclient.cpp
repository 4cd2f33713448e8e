// SPDX-License-Identifier: Apache-2.0
#include "client/clientsample.h"
#include "client/rampclient.h"
#include "lab/spec/docrootgenerator.h"
#include "servedfiles.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QTemporaryDir>
#include <QTest>

using namespace servelab;
using client::ThinkTime;

class TestRampClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;

    client::RampClient::Result ramp(const char *path, int users, const char *think,
                                    client::RampClient::Phases phases = {300, 1200, 200},
                                    client::SampleSink *samples = nullptr)
    {
        client::ClientOptions o;
        o.samples = samples;
        o.port = m_server->port();
        o.path = path;
        o.concurrency = users;
        o.keepAlive = true;
        ThinkTime t;
        std::string error;
        if (!ThinkTime::parse(think, &t, &error))
            qFatal("%s", error.c_str());
        return client::RampClient(o, 2, phases, t).run();
    }

private Q_SLOTS:
    void initTestCase()
    {
        server::ServerOptions options;
        options.maxRequestsPerConnection = 0;
        QString error;
        m_server = testing::serveFiles(m_root.path(), {4096, 32 << 20}, options, &error);
        QVERIFY2(m_server, qPrintable(error));
    }

    // Users that think 50 ms between requests: only the steady state counts, and faban's checks
    // pass with the figures that make them (50 ms: a timer's late wake on a busy machine, a
    // millisecond, stays inside faban's 5 %).
    void thinkTimeRunPassesItsChecks()
    {
        const auto before = m_server->stats().requests;
        client::SampleQueue samples;
        const auto r = ramp("/4K.bin", 10, "fixed:50ms", {300, 1200, 200}, &samples);
        QVERIFY2(r.steady.fatalError.empty(), r.steady.fatalError.c_str());
        QCOMPARE(r.steady.failed(), 0u);
        QVERIFY(r.steady.completed > 100);
        QVERIFY(r.outsideSteady > 0); // ramp-up and ramp-down did run, uncounted
        QVERIFY2(std::abs(r.steady.elapsedSeconds() - 1.2) < 0.01,
                 qPrintable(QString::number(r.steady.elapsedSeconds())));
        QVERIFY2(r.littlePass, qPrintable(QString::number(r.littleUsers)));
        QVERIFY2(r.thinkPass, qPrintable(QString::number(r.thinkActualMs)));
        QCOMPARE(r.thinkTargetMs, 50.0);
        // Every request the server answered is in the steady figures or counted outside them.
        const auto answered = m_server->stats().requests - before;
        const auto counted = r.steady.completed + r.outsideSteady;
        QVERIFY2(answered >= counted && answered <= counted + r.steady.unfinished,
                 qPrintable(QStringLiteral("answered %1, counted %2").arg(answered).arg(counted)));
        // The live samples show the whole run, ramps included: requests from its first 300 ms.
        std::uint64_t sampled = 0;
        std::uint64_t inRampUp = 0;
        for (const auto &s : client::sumByInterval(samples.drain())) {
            sampled += s.completed;
            if (s.endMicros <= 300'000)
                inRampUp += s.completed;
        }
        QCOMPARE(sampled, counted);
        QVERIFY(inRampUp > 0);
    }

    // A cycle time fixes each user's pace: 5 users every 50 ms is 100 operations a second.
    void cycleTimeSetsThePace()
    {
        const auto r = ramp("/4K.bin", 5, "cycle:50ms");
        QVERIFY2(std::abs(r.steady.requestsPerSecond() - 100) < 5,
                 qPrintable(QString::number(r.steady.requestsPerSecond())));
        QVERIFY(r.littlePass);
        QVERIFY(r.thinkPass);
    }

    // Users asked to start a 32 MiB download every millisecond cannot keep that pace: the
    // measured cycle is far above the target and the check says so.
    void aPaceThatCannotBeHeldFailsTheThinkTimeCheck()
    {
        const auto r = ramp("/32M.bin", 2, "cycle:1ms", {100, 600, 100});
        QVERIFY(r.steady.completed > 0);
        QVERIFY2(r.thinkActualMs > 2, qPrintable(QString::number(r.thinkActualMs)));
        QVERIFY(!r.thinkPass);
    }

    void thinkTimesParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<double>("meanMs");
        QTest::addColumn<bool>("cycle");
        QTest::newRow("none") << "none" << true << 0.0 << false;
        QTest::newRow("fixed ms") << "fixed:500ms" << true << 500.0 << false;
        QTest::newRow("fixed bare") << "fixed:250" << true << 250.0 << false;
        QTest::newRow("uniform") << "uniform:100ms-900ms" << true << 500.0 << false;
        QTest::newRow("cycle s") << "cycle:1s" << true << 1000.0 << true;
        QTest::newRow("uniform reversed") << "uniform:900ms-100ms" << false << 0.0 << false;
        QTest::newRow("unit") << "fixed:5min" << false << 0.0 << false;
        QTest::newRow("kind") << "gaussian:5ms" << false << 0.0 << false;
        QTest::newRow("negative") << "fixed:-5ms" << false << 0.0 << false;
    }
    void thinkTimesParse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(double, meanMs);
        QFETCH(bool, cycle);
        ThinkTime t;
        std::string error;
        QCOMPARE(ThinkTime::parse(text.toStdString(), &t, &error), valid);
        if (!valid) {
            QVERIFY(error.find(text.toStdString()) != std::string::npos);
            return;
        }
        QCOMPARE(t.targetMeanMs(), meanMs);
        QCOMPARE(t.cycle, cycle);
    }

    // The truncated negative exponential has the mean targetMeanMs() says, and no draw above
    // five times the mean.
    void negativeExponentialDraws()
    {
        ThinkTime t;
        std::string error;
        QVERIFY(ThinkTime::parse("negexp:100ms", &t, &error));
        std::mt19937_64 random(42);
        double sum = 0, most = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const double ms = t.sampleMicros(random) / 1000;
            sum += ms;
            most = std::max(most, ms);
        }
        QVERIFY2(std::abs(sum / n - t.targetMeanMs()) < 0.01 * t.targetMeanMs(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(sum / n).arg(t.targetMeanMs())));
        QVERIFY(most <= 500);
        QVERIFY(t.targetMeanMs() < 100 && t.targetMeanMs() > 95);
    }
};

QTEST_GUILESS_MAIN(TestRampClient)
#include "tst_rampclient.moc"
