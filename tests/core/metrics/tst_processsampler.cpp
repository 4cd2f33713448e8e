#include "metrics/processprobe.h"
#include "metrics/processsampler.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using servelab::metrics::ProcessProbe;
using servelab::metrics::ProcessSample;
using servelab::metrics::ProcessSampler;

class TestProcessSampler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Opening descriptors of each type moves exactly their counters.
    void countsDescriptorsByType()
    {
        ProcessProbe probe;
        std::string error;
        QVERIFY2(probe.open(getpid(), &error), error.c_str());
        const ProcessSample before = probe.sample();
        QVERIFY(before.alive);

        int pipeFds[2];
        QCOMPARE(pipe(pipeFds), 0);
        const int socketFd = socket(AF_INET, SOCK_STREAM, 0);
        const int eventFd = eventfd(0, 0);
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("open.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const ProcessSample after = probe.sample();
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        ::close(socketFd);
        ::close(eventFd);

        QCOMPARE(after.pipes - before.pipes, 2);
        QCOMPARE(after.sockets - before.sockets, 1);
        QCOMPARE(after.anonInodes - before.anonInodes, 1);
        QCOMPARE(after.files - before.files, 1);
        QCOMPARE(after.other, before.other);
        QCOMPARE(after.fds() - before.fds(), 5);

        // The listing names them, as lsof would.
        bool listed = false;
        for (const auto &fd : probe.openFds())
            listed = listed || (fd.target == file.fileName().toStdString() && fd.type == "file" &&
                                fd.fd == file.handle());
        QVERIFY(listed);
    }

    // Numbers reused for another type between samples: exact at once up to refreshPerListing
    // descriptors, and within ceil(n / refreshPerListing) listings beyond.
    void reusedNumbersAreReclassified()
    {
        ProcessProbe probe;
        std::string error;
        QVERIFY(probe.open(getpid(), &error));
        const ProcessSample before = probe.sample();
        constexpr int n = 300;
        std::vector<int> fds;
        for (int i = 0; i < n; ++i)
            fds.push_back(socket(AF_INET, SOCK_STREAM, 0));
        QCOMPARE(probe.sample().sockets - before.sockets, n);
        for (int fd : fds)
            ::close(fd);
        for (int i = 0; i < n; ++i)
            QCOMPARE(eventfd(0, 0), fds[std::size_t(i)]); // the same numbers, another type
        const ProcessSample stale = probe.sample();
        QCOMPARE(stale.fds(), before.fds() + n); // the total is always exact
        int samples = stale.byType ? 1 : 0;      // listings, that is: samples that read the types
        ProcessSample now = stale;
        for (int tries = 0; now.anonInodes - before.anonInodes < n && tries < 20; ++tries) {
            now = probe.sample();
            QCOMPARE(now.total, before.total + n);
            samples += now.byType ? 1 : 0;
        }
        QCOMPARE(now.anonInodes - before.anonInodes, n);
        QCOMPARE(now.sockets, before.sockets);
        QVERIFY2(samples <=
                     (n + ProcessProbe::refreshPerListing - 1) / ProcessProbe::refreshPerListing +
                         1,
                 qPrintable(QString::number(samples)));
        for (int fd : fds)
            ::close(fd);
    }

    // Thousands of descriptors: the total stays exact in every sample while the types are read
    // less often, so the sampler keeps to its budget.
    void manyDescriptorsKeepTheTotalExact()
    {
        ProcessProbe probe;
        std::string error;
        QVERIFY(probe.open(getpid(), &error));
        const ProcessSample before = probe.sample();
        constexpr int n = 5000;
        rlimit limit{};
        getrlimit(RLIMIT_NOFILE, &limit);
        if (limit.rlim_cur < rlim_t(n + 100))
            QSKIP("needs ulimit -n above 5100");
        std::vector<int> fds;
        for (int i = 0; i < n; ++i)
            fds.push_back(eventfd(0, 0));
        int typed = 0;
        int skipped = 0;
        for (int i = 0; i < 8; ++i) {
            const ProcessSample s = probe.sample();
            QVERIFY(s.alive);
            QCOMPARE(s.total, before.total + n);
            if (s.byType) {
                ++typed;
                QCOMPARE(s.anonInodes - before.anonInodes, n);
                QCOMPARE(s.sockets + s.files + s.pipes + s.anonInodes + s.other, s.total);
            } else {
                ++skipped;
                QCOMPARE(s.anonInodes, 0);
            }
        }
        for (int fd : fds)
            ::close(fd);
        QVERIFY(typed >= 1);
        struct stat self
        {};
        stat("/proc/self/fd", &self);
        if (self.st_size > 0) // Linux >= 6.2 counts them in stat(): listings can be skipped
            QVERIFY2(skipped >= 1, "every sample listed 5000 descriptors");
    }

    void threadsMemoryCpuAndLimit()
    {
        ProcessProbe probe;
        std::string error;
        QVERIFY(probe.open(getpid(), &error));
        const ProcessSample before = probe.sample();
        std::mutex mutex;
        std::condition_variable cv;
        bool release = false;
        std::thread waiting([&] {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return release; });
        });
        // Burn 300 ms of CPU in this thread: its own CPU clock, not the wall clock, so a busy
        // machine (ctest -j2) does not leave it short. Bounded by 10 s of wall time.
        const auto cpuNow = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
        };
        const double cpuStart = cpuNow();
        const auto start = std::chrono::steady_clock::now();
        volatile unsigned long spin = 0;
        while (cpuNow() - cpuStart < 0.3 &&
               std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
            spin = spin + 1;
        const ProcessSample after = probe.sample();
        {
            std::lock_guard lock(mutex);
            release = true;
        }
        cv.notify_all();
        waiting.join();

        QCOMPARE(after.threads - before.threads, 1);
        QVERIFY(after.rssBytes > 1024 * 1024);
        const double cpu =
            (after.userSeconds + after.systemSeconds) - (before.userSeconds + before.systemSeconds);
        QVERIFY2(cpu >= 0.2, qPrintable(QString::number(cpu)));
        rlimit limit{};
        getrlimit(RLIMIT_NOFILE, &limit);
        QCOMPARE(after.fdLimit, int(limit.rlim_cur));
    }

    // Every 100 ms on the shared clock; a process that ends is reported gone, not as zeros.
    void samplesAChildEveryHundredMilliseconds()
    {
        const pid_t child = fork();
        if (child == 0) {
            usleep(350'000);
            _exit(0);
        }
        ProcessSampler sampler;
        std::string error;
        QVERIFY2(sampler.start(child, &error), error.c_str());
        QTest::qWait(700);
        sampler.stop();
        int status = 0;
        waitpid(child, &status, 0);
        const auto samples = sampler.drain();
        QVERIFY2(samples.size() >= 6 && samples.size() <= 8,
                 qPrintable(QString::number(samples.size())));
        for (std::size_t i = 1; i < samples.size(); ++i) {
            const auto gap = samples[i].atMicros - samples[i - 1].atMicros;
            QVERIFY2(gap > 80'000 && gap < 150'000, qPrintable(QString::number(gap)));
        }
        QVERIFY(samples.front().alive);
        QVERIFY(samples.front().fds() >= 3);
        QVERIFY(!samples.back().alive); // exited at 350 ms (a zombie until reaped)
        QCOMPARE(samples.back().fds(), 0);
        QCOMPARE(sampler.samplesTaken(), std::uint64_t(samples.size()));
        QVERIFY(sampler.ownCpuSeconds() > 0);
        QVERIFY(sampler.drain().empty());
    }

    void refusesAProcessThatIsNotThere()
    {
        ProcessSampler sampler;
        std::string error;
        QVERIFY(!sampler.start(999'999'999, &error));
        QVERIFY2(error.find("/proc/999999999/fd") != std::string::npos, error.c_str());
        QVERIFY(!sampler.running());
    }
};

QTEST_GUILESS_MAIN(TestProcessSampler)
#include "tst_processsampler.moc"
