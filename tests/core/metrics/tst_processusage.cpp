// SPDX-License-Identifier: Apache-2.0
#include "metrics/clock.h"
#include "metrics/processusage.h"
#include "metrics/syscallcounter.h"

#include <QTest>

#include <atomic>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace servelab;

class TestProcessUsage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A thread that spins for 200 ms of CPU is seen: the CPU time to within the kernel's
    // accounting, one busy thread, and the pages it touched as minor faults.
    void busyThreadIsCountedAndTimed()
    {
        const auto before = metrics::ProcessUsage::read({getpid()});
        QVERIFY(!before.threads.empty());
        std::atomic<bool> spun{false};
        std::atomic<bool> release{false};
        std::thread burner([&] {
            const std::int64_t until = metrics::threadCpuMicros() + 200'000;
            while (metrics::threadCpuMicros() < until) {
            }
            // 64 pages first touched here: 64 minor faults at least.
            const std::size_t bytes = 64 * 4096;
            void *memory =
                mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            for (std::size_t i = 0; i < bytes; i += 4096)
                static_cast<volatile char *>(memory)[i] = 1;
            munmap(memory, bytes);
            spun = true;
            while (!release) // alive for the second reading: a thread gone is not in it
                std::this_thread::yield();
        });
        QTRY_VERIFY_WITH_TIMEOUT(spun.load(), 20000);
        const auto after = metrics::ProcessUsage::read({getpid()});
        release = true;
        burner.join();
        const metrics::ResourceUse used = metrics::ProcessUsage::between(before, after);
        QVERIFY(used.known());
        QVERIFY2(used.cpuMicros() >= 150'000, qPrintable(QString::number(used.cpuMicros())));
        QVERIFY(used.userMicros >= 0 && used.systemMicros >= 0);
        QVERIFY(used.busyThreads >= 1);
        QVERIFY(used.voluntarySwitches >= 0);
        QVERIFY2(used.minorFaults >= 64, qPrintable(QString::number(used.minorFaults)));
        QCOMPARE(used.syscalls, -1); // counted by SyscallCounter, not read from /proc
    }

    // A process that cannot be read (no such pid) gives an unknown use, not zeros.
    void goneProcessIsUnknown()
    {
        const auto before = metrics::ProcessUsage::read({pid_t(999'999'999)});
        const auto after = metrics::ProcessUsage::read({pid_t(999'999'999)});
        QVERIFY(after.threads.empty());
        QVERIFY(!metrics::ProcessUsage::between(before, after).known());
    }

    // The calling thread's calls, counted by the kernel's tracepoint: 1000 getppid() are at
    // least 1000. Where perf events are not allowed, the reason is given.
    void syscallsOfThisThreadAreCounted()
    {
        metrics::SyscallCounter calls;
        std::string why;
        if (!calls.startThisThread(&why))
            QSKIP(why.c_str());
        for (int i = 0; i < 1000; ++i)
            syscall(SYS_getppid);
        const std::int64_t counted = calls.count();
        QVERIFY2(counted >= 1000 && counted < 1100, qPrintable(QString::number(counted)));
    }

    // Another thread's calls, counted from outside it (as a server's are).
    void syscallsOfOtherThreadsAreCounted()
    {
        std::atomic<pid_t> tid{0};
        std::atomic<bool> go{false};
        std::atomic<bool> finished{false};
        std::thread caller([&] {
            tid = pid_t(syscall(SYS_gettid));
            while (!go)
                std::this_thread::yield();
            for (int i = 0; i < 500; ++i)
                syscall(SYS_getppid);
            finished = true;
        });
        QTRY_VERIFY(tid != 0);
        metrics::SyscallCounter calls;
        std::string why;
        if (!calls.start({tid.load()}, &why)) {
            go = true;
            caller.join();
            QSKIP(why.c_str());
        }
        go = true;
        QTRY_VERIFY(finished.load());
        const std::int64_t counted = calls.count();
        caller.join();
        QVERIFY2(counted >= 500, qPrintable(QString::number(counted)));
    }

    void sumsAndDifferencesKeepUnknown()
    {
        metrics::ResourceUse a;
        a.userMicros = 10;
        a.systemMicros = 5;
        a.syscalls = -1;
        metrics::ResourceUse b = a;
        b.syscalls = 7;
        metrics::ResourceUse sum; // empty: takes the first
        sum += b;
        QCOMPARE(sum.syscalls, 7);
        sum += a;
        QCOMPARE(sum.userMicros, 20);
        QCOMPARE(sum.syscalls, -1); // one side did not count them
        QCOMPARE((b - a).cpuMicros(), 0);
        QCOMPARE((b - a).syscalls, -1);
        QCOMPARE((b - b).syscalls, 0);
        const metrics::ResourceUse self = metrics::ResourceUse::ofThisThread();
        QVERIFY(self.known());
        QVERIFY(self.minorFaults >= 0);
    }
};

QTEST_GUILESS_MAIN(TestProcessUsage)
#include "tst_processusage.moc"
