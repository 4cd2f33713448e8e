#include "server/downloadscheduler.h"

#include <QTest>

#include <atomic>
#include <thread>

using servelab::server::DownloadScheduler;

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
        std::vector<std::thread> writers;
        for (int i = 0; i < 3; ++i)
            writers.emplace_back([&] {
                int *taken = nullptr;
                if (!scheduler.take(&taken))
                    ++released;
            });
        QTest::qWait(50); // they are blocked in take(): nothing is active
        QCOMPARE(released.load(), 0);
        scheduler.stop();
        for (auto &writer : writers)
            writer.join();
        QCOMPARE(released.load(), 3);
        int *taken = nullptr;
        QVERIFY(!scheduler.take(&taken)); // and any later take() returns at once
    }

    void aWriterWakesForANewDownload()
    {
        DownloadScheduler<int> scheduler(4);
        int a = 1;
        int *taken = nullptr;
        std::thread writer([&] { scheduler.take(&taken); });
        QTest::qWait(20);
        scheduler.add(&a);
        writer.join();
        QCOMPARE(taken, &a);
    }
};

QTEST_GUILESS_MAIN(TestDownloadScheduler)
#include "tst_downloadscheduler.moc"
