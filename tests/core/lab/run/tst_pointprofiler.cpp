// SPDX-License-Identifier: Apache-2.0
#include "lab/run/experimentrunner.h"
#include "lab/run/pointprofiler.h"
#include "lab/spec/specsource.h"
#include "profile/foldedstacks.h"
#include "profile/lockwaiters.h"
#include "profile/perfrecorder.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

// The functions that waited for a lock in a point's profile.
QStringList waitersOf(const lab::PointResult &point)
{
    QStringList names;
    for (const auto &w :
         profile::LockWaiters::of(profile::FoldedStacks::parse(point.profile.offCpu)))
        names << w.function;
    return names;
}

} // namespace

class TestPointProfiler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qputenv("SERVELAB_CLI", SERVELAB_CLI); }

    // No perf: the point says why, and keeps its figures.
    void withoutPerfThePointSaysWhy()
    {
        QTemporaryDir empty;
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", empty.path().toLocal8Bit());
        lab::PointResult point;
        point.target = QStringLiteral("epoll+copy");
        point.load.completed = point.load.ok = 10;
        point.load.elapsedMicros = 1000;
        bool ran = false;
        lab::ProfileRequest request;
        request.enabled = true;
        lab::PointProfiler(request, empty.path())
            .profile(point.target, getpid(), false, true, &point,
                     [&](lab::PointResult *) { ran = true; });
        qputenv("PATH", path);
        QVERIFY(point.profile.requested);
        QVERIFY(!point.profile.has());
        QVERIFY2(point.profile.note.contains(QStringLiteral("perf is not installed: install "
                                                            "Debian's linux-perf")),
                 qPrintable(point.profile.note));
        QVERIFY(!ran);
        QCOMPARE(point.load.completed, 10u);
    }

    // Seed 004's question: whose lock do the poller's workers wait for? With the mutex-guarded
    // hand-off queue its ends (PollerShared::push, pop) wait for its lock; with the lock-free
    // queue they never do.
    void theHandoffQueuesLockWaitsOnlyWithTheMutex()
    {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("instrumented locks and stacks are not the server's: profiles are checked in the "
              "dev build");
#endif
        if (const QString why = profile::PerfRecorder::unavailable(); !why.isEmpty())
            QSKIP(qPrintable(why));
        if (const QString why = profile::PerfRecorder::offCpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable(why));
        lab::SpecSource source;
        QString error;
        QVERIFY2(lab::SpecSource::read(QStringLiteral("poller-handoff"), &source, &error),
                 qPrintable(error));
        lab::ExperimentSpec spec = source.spec;
        spec.repetitions = 1;
        for (lab::SweepSpec &t : spec.targets) {
            t.durationMs = 2000;
            t.warmupRequests = 500;
            t.profile.enabled = true;
        }
        QTemporaryDir dir;
        lab::ExperimentRunner runner(spec);
        runner.setProfileFolder(dir.filePath(QStringLiteral("profiles")));
        runner.run();
        QCOMPARE(runner.status(), lab::RunStatus::Done);
        QCOMPARE(runner.results().size(), 2);
        for (const lab::PointResult &point : runner.results()) {
            const bool mutex = point.target.contains(QStringLiteral("handoff=mutex"));
            QVERIFY2(point.profile.has(), qPrintable(point.target + u' ' + point.profile.note));
            QVERIFY(QFileInfo(point.profile.perfData).size() > 0);
            QVERIFY(!point.profile.onCpu.isEmpty());
            QVERIFY(point.profile.requestsPerSecond > 0);
            const QStringList waiters = waitersOf(point);
            qInfo().noquote() << point.target
                              << "lock waiters:" << waiters.mid(0, 4).join(QStringLiteral(", "))
                              << "; overhead" << point.profile.overheadPercent() << "%";
            // With the mutex its ends wait for the queue's lock (second here, after the
            // connection registry's lock, taken as each connection is handed back, which
            // varies from run to run); with the lock-free queue they never do.
            qsizetype rank = -1;
            for (qsizetype i = 0; i < waiters.size() && rank < 0; ++i)
                if (waiters[i] == QStringLiteral("servelab::server::PollerShared::push") ||
                    waiters[i] == QStringLiteral("servelab::server::PollerShared::pop"))
                    rank = i + 1;
            qInfo().noquote() << point.target << "the queue's lock: waiter"
                              << (rank > 0 ? QString::number(rank) : QStringLiteral("none"));
            QVERIFY2((rank > 0) == mutex, qPrintable(point.target + QStringLiteral(": ") +
                                                     waiters.join(QStringLiteral(", "))));
            QVERIFY2(!mutex || point.profile.offCpu.contains(QStringLiteral("PollerShared::pop")),
                     "the mutex's workers wait for work in PollerShared::pop");
            // The client's threads are not the server's (an isolated server: its own process).
            QVERIFY(!point.profile.onCpu.contains(QStringLiteral("ClientReactor")));
        }
    }
};

QTEST_GUILESS_MAIN(TestPointProfiler)
#include "tst_pointprofiler.moc"
