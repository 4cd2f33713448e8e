// SPDX-License-Identifier: Apache-2.0
#include "lab/run/experimentrunner.h"
#include "lab/results/resultstore.h"
#include "procstat.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <atomic>
#include <thread>
#include <unistd.h>

using namespace servelab;

namespace {

// Three small sizes on one in-process target: a run of well under a second.
lab::ExperimentSpec smallExperiment(const QString &root, int repetitions = 1)
{
    lab::ExperimentSpec spec;
    QStringList errors;
    const QByteArray text = QStringLiteral(R"({"servelab": 1, "name": "small",
        "targets": [{"builtin": "epoll+copy"}], "sizes": ["4K", "8K", "16K"],
        "document_root": "%1", "client": {"requests": 20}, "repetitions": %2})")
                                .arg(root)
                                .arg(repetitions)
                                .toUtf8();
    if (!lab::ExperimentSpec::parse(text, QStringLiteral("small.json"), &spec, &errors))
        qFatal("%s", qPrintable(errors.join(u'\n')));
    return spec;
}

} // namespace

class TestExperimentRunner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every point, in order, kept in the database with the experiment marked done; progress
    // after each point, with an estimate once something has been measured.
    void runsAndKeepsEveryPoint()
    {
        QTemporaryDir dir;
        lab::ExperimentRunner runner(smallExperiment(dir.filePath(QStringLiteral("root")), 2));
        runner.setDatabase(dir.filePath(QStringLiteral("results.db")));
        QSignalSpy progress(&runner, &lab::ExperimentRunner::progress);
        QSignalSpy finished(&runner, &lab::ExperimentRunner::finished);
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Done);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(runner.totalPoints(), 6);
        QCOMPARE(runner.results().size(), 6);
        QCOMPARE(progress.size(), 6);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(progress[i][0].toInt(), i + 1);
            QCOMPARE(progress[i][1].toInt(), 6);
            QVERIFY(progress[i][2].toLongLong() >= 0); // every point leaves one to go by
            const auto &p = runner.results()[i];
            QCOMPARE(p.index, i);
            QCOMPARE(p.repetition, i / 3);
            QCOMPARE(p.target, QStringLiteral("epoll+copy"));
            QVERIFY2(!p.dnf, qPrintable(p.reason));
        }
        QCOMPARE(progress.last()[2].toLongLong(), 0);

        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("results.db")), &error), qPrintable(error));
        const auto experiments = store.experiments();
        QCOMPARE(experiments.size(), 1);
        QCOMPARE(experiments[0].id, runner.experimentId());
        QCOMPARE(experiments[0].status, servelab::lab::RunStatus::Done);
        QCOMPARE(experiments[0].points, 6);
        QVERIFY(!experiments[0].machine.isEmpty());
    }

    // A pause from another thread holds the run between points, with the target up; resume
    // carries on to the end.
    void pauseHoldsBetweenPointsUntilResumed()
    {
        QTemporaryDir dir;
        lab::ExperimentRunner runner(smallExperiment(dir.path()));
        std::atomic<int> done{0};
        connect(
            &runner, &lab::ExperimentRunner::pointFinished, this,
            [&] {
                if (done.fetch_add(1) == 0)
                    runner.pause(); // the next point waits
            },
            Qt::DirectConnection);
        QElapsedTimer firstPoint;
        firstPoint.start();
        std::thread worker([&] { runner.run(); });
        const bool oneDone = QTest::qWaitFor([&] { return done.load() >= 1; }, 30000);
        const qint64 pointMs = firstPoint.elapsed(); // a point here, and the start before it
        // Paused before the next point by construction: the stimulus is then time itself, as
        // long as the first point took here (at least 600 ms), for two more points if it did
        // not hold.
        if (oneDone)
            QTest::qWait(int(std::clamp<qint64>(pointMs, 600, 10000)));
        const int held = done.load();
        const bool paused = runner.isPaused();
        runner.resume();
        worker.join();
        QVERIFY2(oneDone, "no point finished within 30 s");
        QVERIFY(paused);
        QCOMPARE(held, 1);
        QCOMPARE(done.load(), 3);
        QCOMPARE(runner.status(), lab::RunStatus::Done);
    }

    // Cancel ends a paused run at once; the experiment is cancelled, with the points measured.
    void cancelEndsAPausedRun()
    {
        QTemporaryDir dir;
        lab::ExperimentRunner runner(smallExperiment(dir.filePath(QStringLiteral("root")), 3));
        runner.setDatabase(dir.filePath(QStringLiteral("results.db")));
        connect(
            &runner, &lab::ExperimentRunner::pointFinished, this, [&] { runner.pause(); },
            Qt::DirectConnection);
        std::atomic<pid_t> tid{0};
        std::thread worker([&] {
            tid = gettid();
            runner.run();
        });
        // Paused after the first point, and the worker asleep: waiting in the run's control
        // before the next point, however long this machine took to get there. (A cancel that
        // came a moment sooner would end the run the same way: this is the case named.)
        const bool waiting = QTest::qWaitFor(
            [&] { return runner.isPaused() && procstat::threadState(getpid(), tid.load()) == 'S'; },
            30000);
        runner.cancel();
        worker.join();
        QVERIFY2(waiting, "the run did not pause within 30 s");
        QCOMPARE(runner.status(), lab::RunStatus::Cancelled);
        QCOMPARE(runner.results().size(), 1);
        lab::ResultStore store;
        QString error;
        QVERIFY(store.open(dir.filePath(QStringLiteral("results.db")), &error));
        QCOMPARE(store.experiments().value(0).status, servelab::lab::RunStatus::Cancelled);
        QCOMPARE(store.points(runner.experimentId()).size(), 1);
    }

    // A target that cannot start is DNF at every size, with its reason; the next one runs.
    void targetThatCannotStartIsDnf()
    {
        QTemporaryDir dir;
        lab::ExperimentSpec spec = smallExperiment(dir.path());
        lab::SweepSpec broken = spec.targets.first();
        broken.target = QStringLiteral("command:/nonexistent/server --port {port}");
        spec.targets.prepend(broken);
        lab::ExperimentRunner runner(spec);
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Done);
        QCOMPARE(runner.results().size(), 6);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(runner.results()[i].dnf);
            QVERIFY2(runner.results()[i].reason.contains(QStringLiteral("/nonexistent/server")),
                     qPrintable(runner.results()[i].reason));
            QCOMPARE(runner.results()[i].target, QStringLiteral("server (command)"));
            QVERIFY(!runner.results()[i + 3].dnf);
        }
    }

    // A database that cannot be opened stops the run before anything is measured.
    void unusableDatabaseFailsFirst()
    {
        QTemporaryDir dir;
        QFile garbage(dir.filePath(QStringLiteral("not.db")));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(4096, 'x'));
        garbage.close();
        lab::ExperimentRunner runner(smallExperiment(dir.path()));
        runner.setDatabase(garbage.fileName());
        QSignalSpy started(&runner, &lab::ExperimentRunner::started);
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Failed);
        QVERIFY2(runner.finishReason().contains(garbage.fileName()),
                 qPrintable(runner.finishReason()));
        QCOMPARE(started.size(), 0);
        QVERIFY(runner.results().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestExperimentRunner)
#include "tst_experimentrunner.moc"
