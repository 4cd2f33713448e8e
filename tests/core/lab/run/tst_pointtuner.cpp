// SPDX-License-Identifier: Apache-2.0
#include "lab/results/resultbundle.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "lab/run/sweeprunner.h"

#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

// A spec's "tune" steps inside a point (issue 19, seed 003's live tuning): made at their time,
// seen on the timelines, stored, exported, and undone before the next point.
class TestPointTuner : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;

    lab::SweepSpec spec(const QString &mode, int threads, QList<lab::TuneStep> tune)
    {
        lab::SweepSpec s;
        s.sizes = {64 * 1024};
        s.root = m_root.path();
        s.mode = mode;
        s.serverThreads = threads;
        s.model = client::LoadModel::Duration;
        s.durationMs = 2000;
        s.concurrency = 4;
        s.clientThreads = 1;
        s.keepAlive = true;
        s.tune = std::move(tune);
        return s;
    }

private Q_SLOTS:
    void initTestCase() { qputenv("SERVELAB_CLI", SERVELAB_CLI); }

    // The step: a multiplex point at 1 writer, 8 from 1 s on. The marker is where the
    // server answered; the thread count in the samples follows it (7 more), and the next point
    // starts at 1 writer again.
    void stepIsMarkedAndThreadsFollow()
    {
        auto s =
            spec(QStringLiteral("multiplex+sendfile"), 1, {{1000, {QStringLiteral("threads=8")}}});
        s.sizes = {64 * 1024, 4096};
        lab::SweepRunner runner(s);
        runner.run();
        QCOMPARE(runner.results().size(), 2);
        const lab::PointResult &p = runner.results().first();
        QVERIFY2(!p.dnf, qPrintable(p.reason));
        QCOMPARE(p.tuneEvents.size(), std::size_t(1));
        const lab::TuneEvent &e = p.tuneEvents.front();
        QVERIFY2(e.made(), qPrintable(e.error));
        QCOMPARE(e.change, QStringLiteral("threads=8"));
        const auto at = e.atMicros - p.startedAtMicros;
        QVERIFY2(at >= 1'000'000 && at < 1'800'000, qPrintable(QString::number(at)));

        QVERIFY(!p.serverSamples.empty());
        const int before = p.serverSamples.front().threads;
        bool followed = false;
        for (const auto &sample : p.serverSamples) {
            if (sample.atMicros < e.atMicros - 50'000) // a sample taken before the change
                QCOMPARE(sample.threads, before);
            followed = followed || sample.threads == before + 7;
        }
        QVERIFY2(followed, "no sample after the change shows the 7 writers more");
        // Put back for the next point: it runs with the writer it was given until its own
        // step (the 7 retired writers leave as they come for work: at once when idle, a moment
        // later under a sanitizer, so the last sample before the step is the one to read).
        const lab::PointResult &next = runner.results()[1];
        QVERIFY2(!next.dnf, qPrintable(next.reason));
        QVERIFY(next.tuneEvents.size() == 1 && next.tuneEvents.front().made());
        const metrics::ProcessSample *lastBefore = nullptr;
        for (const auto &sample : next.serverSamples)
            if (sample.atMicros < next.tuneEvents.front().atMicros)
                lastBefore = &sample;
        QVERIFY(lastBefore);
        QCOMPARE(lastBefore->threads, before);

        // Stored and read back whole: the database and the bundle.
        QTemporaryDir dir;
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("r.db")), &error), qPrintable(error));
        const qint64 run = store.beginExperiment(QStringLiteral("tune"), s.toJson(), &error);
        QVERIFY2(run > 0 && store.addPoint(run, p, &error), qPrintable(error));
        const auto stored = store.points(run, &error);
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored.first().tuneEvents, p.tuneEvents);
        lab::ResultBundle bundle;
        bundle.points = {p};
        lab::ResultBundle back;
        QVERIFY2(lab::ResultBundle::fromJson(bundle.toJson(), &back, &error), qPrintable(error));
        QCOMPARE(back.points.first().tuneEvents, p.tuneEvents);
        // Exported with the timeline: the marker in its 100 ms row.
        const QStringList rows = lab::formatTimelineCsv({p}).split(u'\n');
        QVERIFY(rows.first().endsWith(QStringLiteral(",tune")));
        QCOMPARE(rows.filter(QStringLiteral(",threads=8")).size(), 1);
    }

    // A change only the running server can refuse (its cache turned on) is recorded with the
    // reason; the point goes on.
    void refusalIsRecordedAndThePointGoesOn()
    {
        lab::SweepRunner runner(spec(QStringLiteral("epoll+sendfile"), 1,
                                     {{300, {QStringLiteral("open-file-cache=100")}}}));
        QString failure;
        connect(&runner, &lab::SweepRunner::failed, this,
                [&](const QString &why) { failure = why; });
        runner.run();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(runner.results().size(), 1);
        const lab::PointResult &p = runner.results().first();
        QVERIFY2(!p.dnf, qPrintable(p.reason));
        QCOMPARE(p.tuneEvents.size(), std::size_t(1));
        QVERIFY2(p.tuneEvents.front().error.contains(QStringLiteral("turns on or off only")),
                 qPrintable(p.tuneEvents.front().error));
        QVERIFY(p.load.ok > 0);
    }

    // A step after the point's end is listed as not made, and does not hold the point up.
    void stepAfterTheEndIsNotMade()
    {
        auto s = spec(
            QStringLiteral("poller+sendfile"), 2,
            {{200, {QStringLiteral("chunk=64K")}}, {3'000'000, {QStringLiteral("threads=4")}}});
        s.isolated = false; // in this process: the same tuning, without the control socket
        s.durationMs = 1000;
        lab::SweepRunner runner(s);
        QString failure;
        connect(&runner, &lab::SweepRunner::failed, this,
                [&](const QString &why) { failure = why; });
        QElapsedTimer took;
        took.start();
        runner.run();
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(runner.results().size(), 1);
        QVERIFY(took.elapsed() < 60'000);
        const lab::PointResult &p = runner.results().first();
        QCOMPARE(p.tuneEvents.size(), std::size_t(2));
        QVERIFY2(p.tuneEvents[0].made(), qPrintable(p.tuneEvents[0].error));
        QVERIFY2(p.tuneEvents[1].error.startsWith(QStringLiteral("not made: the point ended")),
                 qPrintable(p.tuneEvents[1].error));
    }
};

QTEST_GUILESS_MAIN(TestPointTuner)
#include "tst_pointtuner.moc"
