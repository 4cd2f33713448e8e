// SPDX-License-Identifier: Apache-2.0
// Soak: slowloris against every mode. 200 connections dribble a request head that never ends
// while a normal client (ab -c 4 -k shaped) measures: its p99 (the median of three runs) must
// stay within twice its unloaded value, and every dribbler must be closed at the header
// deadline, not before and not long after. The server runs as `servelab-cli serve`, pinned to cpu0;
// this test on cpu1.

#include "childprocess.h"
#include "client/closedclient.h"
#include "lab/spec/docrootgenerator.h"
#include "loopback.h"
#include "metrics/clock.h"
#include "server/servermode.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace servelab;

namespace {

constexpr int dribblerCount = 200;
constexpr int headerTimeoutSeconds = 5;
constexpr std::int64_t dribblePeriodMicros = 500'000; // each dribbler sends a byte this often

void pinTo(int cpu, pid_t pid = 0)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu % int(std::thread::hardware_concurrency()), &set);
    sched_setaffinity(pid, sizeof set, &set);
}

// The dribblers, on a thread of their own: each sends the start of a request head, then one
// more header byte every half second, their sends spread evenly over the period (2.5 ms
// apart). Records when the server closed each one, measured from its first byte.
class Dribblers
{
public:
    explicit Dribblers(quint16 port)
    {
        for (int i = 0; i < dribblerCount; ++i)
            m_fds.push_back(connectLoopback(port));
        m_thread = std::thread([this] { run(); });
    }
    ~Dribblers()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        for (int fd : m_fds)
            if (fd >= 0)
                ::close(fd);
    }
    int connected() const
    {
        return int(std::count_if(m_fds.begin(), m_fds.end(), [](int fd) { return fd >= 0; }));
    }
    bool allClosed() const { return m_closed.load() == dribblerCount; }
    bool allStarted() const { return m_started.load() == dribblerCount; } // sent a first byte
    // After the thread ended: for each dribbler, microseconds from its first byte to the
    // server's close (-1: still open).
    std::vector<std::int64_t> lifetimes()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        std::vector<std::int64_t> out;
        for (std::size_t i = 0; i < m_fds.size(); ++i)
            out.push_back(m_closedAt[i] ? m_closedAt[i] - m_firstByte[i] : -1);
        return out;
    }

private:
    void run()
    {
        const QByteArray start = "GET /4K.bin HTTP/1.1\r\nHost: soak\r\nX-Slow: ";
        m_firstByte.assign(m_fds.size(), 0);
        m_closedAt.assign(m_fds.size(), 0);
        const std::int64_t step = dribblePeriodMicros / dribblerCount;
        std::int64_t next = metrics::monotonicMicros();
        for (std::size_t turn = 0; !m_stop; ++turn) {
            const std::size_t i = turn % m_fds.size();
            next += step;
            const std::int64_t wait = next - metrics::monotonicMicros();
            if (wait > 0) // the stimulus: the dribble's pace (a late step only sends later)
                usleep(useconds_t(wait));
            // Every step, all of them: a close is seen within 2.5 ms.
            const std::int64_t now = metrics::monotonicMicros();
            std::vector<pollfd> open;
            std::vector<std::size_t> which;
            for (std::size_t k = 0; k < m_fds.size(); ++k)
                if (m_fds[k] >= 0 && !m_closedAt[k]) {
                    open.push_back({m_fds[k], POLLIN | POLLRDHUP, 0});
                    which.push_back(k);
                }
            ::poll(open.data(), open.size(), 0);
            for (std::size_t k = 0; k < open.size(); ++k)
                if (open[k].revents) { // an answer (408), EOF or reset: the server is done
                    m_closedAt[which[k]] = now;
                    ++m_closed;
                }
            if (m_fds[i] < 0 || m_closedAt[i])
                continue;
            const bool first = m_firstByte[i] == 0;
            const auto sent = first ? ::send(m_fds[i], start.data(), start.size(), MSG_NOSIGNAL)
                                    : ::send(m_fds[i], "a", 1, MSG_NOSIGNAL);
            if (sent < 0) {
                m_closedAt[i] = now;
                ++m_closed;
            } else if (first) {
                m_firstByte[i] = now;
                ++m_started;
            }
        }
    }

    std::vector<int> m_fds;
    std::vector<std::int64_t> m_firstByte;
    std::vector<std::int64_t> m_closedAt;
    std::atomic<int> m_closed{0};
    std::atomic<int> m_started{0};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

class TestSlowloris : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_root;

    // The normal load: 4 kept-alive connections, 4,000 requests for 4 KiB; its p99 in µs.
    static std::int64_t p99(quint16 port, client::LoadResult *result)
    {
        client::ClientOptions o;
        o.port = port;
        o.path = "/4K.bin";
        o.expectedBodyLength = 4096;
        o.requests = 4000;
        o.concurrency = 4;
        o.keepAlive = true;
        o.timeoutMs = 10000;
        *result = client::ClosedClient(o).run();
        return result->latency.valueAtPercentile(99);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(lab::DocRootGenerator::ensure(m_root.path(), {4096}, &error), qPrintable(error));
        pinTo(1); // this test, its client and the dribblers; the server goes to cpu0
    }

    void dribblersDoNotHurtNormalLoad_data()
    {
        QTest::addColumn<QString>("mode");
        for (const auto &mode : server::availableModes())
            QTest::newRow(mode.name().c_str()) << QString::fromStdString(mode.name());
    }
    void dribblersDoNotHurtNormalLoad()
    {
        QFETCH(QString, mode);
        // A thread per connection holds a thread per dribbler: give the pool room for them and
        // the normal load, as an Apache prefork with MaxClients 256 would have.
        const QString threads =
            mode.startsWith(u"blocking") ? QStringLiteral("256") : QStringLiteral("2");
        ChildProcess serve;
        serve.start(QStringLiteral(SERVELAB_CLI),
                    {QStringLiteral("serve"), QStringLiteral("--root"), m_root.path(),
                     QStringLiteral("--mode"), mode, QStringLiteral("--threads"), threads,
                     QStringLiteral("--header-timeout"),
                     QStringLiteral("%1s").arg(headerTimeoutSeconds)});
        QVERIFY(serve.waitForReadyRead(10000));
        const auto match = QRegularExpression(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"))
                               .match(QString::fromUtf8(serve.readLine()));
        QVERIFY(match.hasMatch());
        const quint16 port = match.captured(1).toUShort();
        pinTo(0, pid_t(serve.processId()));

        // Each figure is the median of three runs of the normal load: one run's p99 is its 40
        // slowest requests, which one scheduling hiccup on a 2-core machine can move.
        client::LoadResult result;
        const auto medianP99 = [&] {
            std::array<std::int64_t, 3> runs{};
            for (auto &run : runs) {
                run = p99(port, &result);
                if (result.ok != 4000u)
                    return std::int64_t(-1);
            }
            std::sort(runs.begin(), runs.end());
            return runs[1];
        };
        p99(port, &result); // warm-up: page cache, the server's threads, the client's arenas
        const std::int64_t unloaded = medianP99();
        QVERIFY2(unloaded > 0, "the normal load failed without dribblers");

        Dribblers dribblers(port);
        QCOMPARE(dribblers.connected(), dribblerCount);
        // Every dribbler has started (a period, when this machine keeps up), before the load.
        QTRY_VERIFY_WITH_TIMEOUT(dribblers.allStarted(), 30000);
        const std::int64_t loaded = medianP99();
        QVERIFY2(loaded > 0, "the normal load failed beside the dribblers");
        qInfo("%s: normal load p99 %lld µs unloaded, %lld µs with %d dribblers (%.2f×)",
              qPrintable(mode), static_cast<long long>(unloaded), static_cast<long long>(loaded),
              dribblerCount, double(loaded) / double(unloaded));

        // Every dribbler is closed at the header deadline: not before, and within a second
        // after (the servers scan for deadlines every 100 ms to 1 s, by model).
        QTRY_VERIFY_WITH_TIMEOUT(dribblers.allClosed(), (headerTimeoutSeconds + 4) * 1000);
        const auto lifetimes = dribblers.lifetimes();
        const auto [shortest, longest] = std::minmax_element(lifetimes.begin(), lifetimes.end());
        qInfo("%s: dribblers closed %.2f … %.2f s after their first byte (deadline %d s)",
              qPrintable(mode), double(*shortest) / 1e6, double(*longest) / 1e6,
              headerTimeoutSeconds);
        QVERIFY2(*shortest >= headerTimeoutSeconds * 1'000'000 - 100'000,
                 "a dribbler was closed before the header deadline");
        QVERIFY2(*longest <= headerTimeoutSeconds * 1'000'000 + 1'000'000,
                 "a dribbler outlived the header deadline by more than a second");
        QVERIFY2(loaded <= 2 * unloaded,
                 qPrintable(QStringLiteral("p99 with dribblers %1 µs is more than twice the "
                                           "unloaded %2 µs")
                                .arg(loaded)
                                .arg(unloaded)));

        serve.terminate();
        QVERIFY(serve.waitForFinished(10000));
        QCOMPARE(serve.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSlowloris)
#include "tst_slowloris.moc"
