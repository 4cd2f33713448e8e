// SPDX-License-Identifier: Apache-2.0
#include "procstat.h"
#include "server/downloadscheduler.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <atomic>
#include <thread>
#include <unistd.h>

using servelab::server::DownloadScheduler;

namespace {

// Whether thread `tid` of this test is blocked in a wait: a writer inside take() with nothing
// to take, once it has said its tid (0: not yet).
bool asleep(pid_t tid)
{
    return tid > 0 && procstat::threadState(getpid(), tid) == 'S';
}

} // namespace

class TestDownloadScheduler : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void activeDownloadsTakeTurns()
    {
        DownloadScheduler<int> scheduler(2);
        int a = 1, b = 2;
        scheduler.add(&a);
        scheduler.add(&b);
        QCOMPARE(scheduler.active(), 2u);
        QCOMPARE(scheduler.waiting(), 0u);
        // Each chunk sent puts the download at the back: a, b, a, b.
        int *order[4] = {};
        for (auto &taken : order) {
            QVERIFY(scheduler.take(&taken));
            scheduler.putBack(taken);
        }
        QCOMPARE(order[0], &a);
        QCOMPARE(order[1], &b);
        QCOMPARE(order[2], &a);
        QCOMPARE(order[3], &b);
    }

    void beyondTheLimitDownloadsWaitInOrder()
    {
        DownloadScheduler<int> scheduler(1);
        int a = 1, b = 2, c = 3;
        scheduler.add(&a);
        scheduler.add(&b);
        scheduler.add(&c);
        QCOMPARE(scheduler.active(), 1u);
        QCOMPARE(scheduler.waiting(), 2u);
        int *taken = nullptr;
        QVERIFY(scheduler.take(&taken));
        QCOMPARE(taken, &a);
        scheduler.finish(); // a is done: b, the first to wait, gets its slot
        QCOMPARE(scheduler.active(), 1u);
        QCOMPARE(scheduler.waiting(), 1u);
        QVERIFY(scheduler.take(&taken));
        QCOMPARE(taken, &b);
        scheduler.finish();
        QVERIFY(scheduler.take(&taken));
        QCOMPARE(taken, &c);
        scheduler.finish(); // nobody waits: the slot is free
        QCOMPARE(scheduler.active(), 0u);
        QCOMPARE(scheduler.waiting(), 0u);
        int d = 4;
        scheduler.add(&d);
        QCOMPARE(scheduler.active(), 1u);
        QCOMPARE(scheduler.waiting(), 0u);
    }

    void stopReleasesWaitingWriters()
    {
        DownloadScheduler<int> scheduler(4);
        std::atomic<int> released{0};
        std::array<std::atomic<pid_t>, 3> tids{};
        std::vector<std::thread> writers;
        for (std::size_t i = 0; i < tids.size(); ++i)
            writers.emplace_back([&, i] {
                tids[i] = gettid();
                int *taken = nullptr;
                if (!scheduler.take(&taken))
                    ++released;
            });
        // They are blocked in take(): nothing is active.
        const bool blocked = QTest::qWaitFor(
            [&] {
                return std::all_of(tids.begin(), tids.end(),
                                   [](const auto &tid) { return asleep(tid); });
            },
            10000);
        const int releasedEarly = released.load();
        scheduler.stop();
        for (auto &writer : writers)
            writer.join();
        QVERIFY2(blocked, "the writers did not all block in take() within 10 s");
        QCOMPARE(releasedEarly, 0);
        QCOMPARE(released.load(), 3);
        int *taken = nullptr;
        QVERIFY(!scheduler.take(&taken)); // and any later take() returns at once
    }

    void aWriterWakesForANewDownload()
    {
        DownloadScheduler<int> scheduler(4);
        int a = 1;
        int *taken = nullptr;
        std::atomic<pid_t> tid{0};
        std::thread writer([&] {
            tid = gettid();
            scheduler.take(&taken);
        });
        // Blocked in take() before there is anything to take: the add() must wake it.
        const bool blocked = QTest::qWaitFor([&] { return asleep(tid); }, 10000);
        scheduler.add(&a);
        writer.join();
        QVERIFY2(blocked, "the writer did not block in take() within 10 s");
        QCOMPARE(taken, &a);
    }
};

QTEST_GUILESS_MAIN(TestDownloadScheduler)
#include "tst_downloadscheduler.moc"
