// SPDX-License-Identifier: Apache-2.0
#include "lab/results/machinefacts.h"
#include "lab/results/resultbundle.h"
#include "samplepoint.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace servelab;
using servelab::testing::samplePoint;

class TestResultBundle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Everything of a point survives the file: figures, errors, histogram, both timelines.
    void roundTrip()
    {
        lab::ResultBundle bundle;
        bundle.name = QStringLiteral("seed 001");
        bundle.spec = R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}]})";
        bundle.machine = lab::machineFacts();
        bundle.points = {samplePoint(0), samplePoint(1)};
        lab::ResultBundle back;
        QString error;
        QVERIFY2(lab::ResultBundle::fromJson(bundle.toJson(), &back, &error), qPrintable(error));
        QCOMPARE(back.name, bundle.name);
        QVERIFY(back.spec.contains("\"servelab\": 1"));
        QCOMPARE(back.machine, bundle.machine);
        QCOMPARE(back.points.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const auto want = samplePoint(i);
            const auto &got = back.points[i];
            QCOMPARE(got.index, want.index);
            QCOMPARE(got.repetition, want.repetition);
            QCOMPARE(got.target, want.target);
            QCOMPARE(got.sizeBytes, want.sizeBytes);
            QCOMPARE(got.reason, want.reason);
            QCOMPARE(got.load.completed, want.load.completed);
            QCOMPARE(got.load.errors, want.load.errors);
            QCOMPARE(got.kibPerSecond(), want.kibPerSecond());
            QCOMPARE(got.load.latency.count(), want.load.latency.count());
            QCOMPARE(got.load.latency.mean(), want.load.latency.mean());
            QCOMPARE(got.load.latency.valueAtPercentile(99),
                     want.load.latency.valueAtPercentile(99));
            QCOMPARE(got.fdsLeftOpen, want.fdsLeftOpen);
            QCOMPARE(got.serverCounted, want.serverCounted);
            QCOMPARE(got.server.handoffWaitMicros, want.server.handoffWaitMicros);
            QVERIFY(testing::sameCost(got, want));    // what it cost and what limited it
            QVERIFY(testing::sameProfile(got, want)); // and its profile
            QVERIFY(testing::sameAgents(got, want));  // and its load agents
            QCOMPARE(got.clientSamples.size(), want.clientSamples.size());
            QCOMPARE(got.clientSamples[1].latency.count(), 1u);
            QCOMPARE(got.serverSamples.size(), want.serverSamples.size());
            // The point's place on the run's clock, and its samples' (the charts draw the
            // points one after another by it).
            QCOMPARE(got.startedAtMicros, want.startedAtMicros);
            QCOMPARE(got.serverSamples[2].atMicros, want.serverSamples[2].atMicros);
            QCOMPARE(got.serverSamples[2].total, want.serverSamples[2].total);
        }
    }

    // A bundle from before started_at_us was written: its points laid one after another, not
    // all at 0 s (where the time charts drew them on top of each other).
    void bundleWithoutStartTimesLaysPointsOut()
    {
        lab::ResultBundle bundle;
        bundle.points = {samplePoint(0), samplePoint(1)};
        QJsonDocument document = QJsonDocument::fromJson(bundle.toJson());
        QJsonObject root = document.object();
        QJsonArray points = root.value(QStringLiteral("points")).toArray();
        for (auto &&point : points) {
            QJsonObject o = point.toObject();
            QVERIFY(o.contains(QStringLiteral("started_at_us")));
            o.remove(QStringLiteral("started_at_us"));
            point = o;
        }
        root.insert(QStringLiteral("points"), points);
        lab::ResultBundle back;
        QString error;
        QVERIFY2(lab::ResultBundle::fromJson(QJsonDocument(root).toJson(), &back, &error),
                 qPrintable(error));
        const auto &first = back.points[0];
        const auto &second = back.points[1];
        QCOMPARE(first.startedAtMicros, 0);
        QCOMPARE(first.serverSamples[2].atMicros,
                 samplePoint(0).serverSamples[2].atMicros - samplePoint(0).startedAtMicros);
        QVERIFY(second.startedAtMicros > first.serverSamples.back().atMicros);
        QVERIFY(second.startedAtMicros >= first.startedAtMicros + first.load.elapsedMicros);
        QVERIFY(second.serverSamples.front().atMicros >= second.startedAtMicros);
    }

    void machineFactsSayWhereItRan()
    {
        const QJsonObject m = lab::machineFacts();
        QVERIFY(m.value(QStringLiteral("kernel")).toString().startsWith(QStringLiteral("Linux ")));
        QVERIFY(m.value(QStringLiteral("cores")).toInt() >= 1);
        QVERIFY(m.value(QStringLiteral("sysctls"))
                    .toObject()
                    .contains(QStringLiteral("net.core.somaxconn")));
        QVERIFY(!m.value(QStringLiteral("servelab")).toString().isEmpty());
        // From /proc, whose files say their size is 0.
        QVERIFY2(!m.value(QStringLiteral("cpu")).toString().isEmpty(),
                 QJsonDocument(m).toJson().constData());
        QVERIFY2(m.value(QStringLiteral("memory")).toString().endsWith(QStringLiteral(" kB")),
                 qPrintable(m.value(QStringLiteral("memory")).toString()));
    }

    void refusesWhatIsNotABundle_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not JSON") << QByteArray("hello") << QStringLiteral("not a ServeLab bundle");
        QTest::newRow("a spec") << QByteArray(R"({"servelab": 1})")
                                << QStringLiteral("not a ServeLab bundle of version 1");
        QTest::newRow("bad histogram")
            << QByteArray(R"({"servelab_bundle": 1, "points": [{"latency": {"hdr": "xyz"}}]})")
            << QStringLiteral("point 0 of the bundle cannot be read");
    }
    void refusesWhatIsNotABundle()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, mentions);
        lab::ResultBundle bundle;
        QString error;
        QVERIFY(!lab::ResultBundle::fromJson(json, &bundle, &error));
        QVERIFY2(error.contains(mentions), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestResultBundle)
#include "tst_resultbundle.moc"
