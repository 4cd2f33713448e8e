// SPDX-License-Identifier: Apache-2.0
#include "client/clientsample.h"
#include "client/closedclient.h"
#include "lab/spec/docrootgenerator.h"
#include "metrics/clock.h"
#include "servedfiles.h"
#include "server/listener.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace servelab;
using client::ErrorKind;

namespace {

// A server that misbehaves on purpose: for each connection it reads the request head, then
// writes `reply` and closes (or, with an empty reply, holds the connection until stopped).
// With `reset`, it closes with a TCP reset instead of a FIN. With `endless`, it goes on after
// the reply sending `endless` every `everyMs` (0: as fast as it goes) until the client leaves
// (at most 5 s: a client that never gives up fails its test, not the suite). Each of those
// sends waits `everyMs` first.
class ScriptedServer
{
public:
    explicit ScriptedServer(QByteArray reply, bool reset = false, QByteArray endless = {},
                            int everyMs = 0)
        : m_reply(std::move(reply)), m_reset(reset), m_endless(std::move(endless)),
          m_everyMs(everyMs)
    {
        m_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
        listen(m_fd, 64);
        socklen_t length = sizeof address;
        getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length);
        m_port = ntohs(address.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~ScriptedServer()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }
    quint16 port() const { return m_port; }
    // The head of the first request it read.
    QByteArray firstRequest()
    {
        const std::lock_guard lock(m_mutex);
        return m_first;
    }

private:
    void serve()
    {
        std::vector<int> held;
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (poll(&p, 1, 20) <= 0)
                continue;
            const int c = accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0)
                continue;
            QByteArray request;
            char buffer[4096];
            while (!request.contains("\r\n\r\n")) {
                const auto n = recv(c, buffer, sizeof buffer, 0);
                if (n <= 0)
                    break;
                request.append(buffer, n);
            }
            {
                const std::lock_guard lock(m_mutex);
                if (m_first.isEmpty())
                    m_first = request;
            }
            if (m_reply.isEmpty()) {
                held.push_back(c);
                continue;
            }
            ::send(c, m_reply.data(), m_reply.size(), MSG_NOSIGNAL);
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            while (!m_endless.isEmpty() && !m_stop && std::chrono::steady_clock::now() < until) {
                if (m_everyMs > 0) // the stimulus: a server this slow, whatever the machine
                    std::this_thread::sleep_for(std::chrono::milliseconds(m_everyMs));
                if (::send(c, m_endless.data(), m_endless.size(), MSG_NOSIGNAL) < 0)
                    break;
            }
            if (m_reset) {
                const linger abort{1, 0};
                setsockopt(c, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
            }
            ::close(c);
        }
        for (int c : held)
            ::close(c);
    }

    QByteArray m_reply;
    bool m_reset = false;
    QByteArray m_endless;
    int m_everyMs = 0;
    int m_fd = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    QByteArray m_first;
    std::thread m_thread;
};

} // namespace

class TestClosedClient : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_root;
    std::unique_ptr<server::Server> m_server;

    client::ClientOptions optionsFor(quint64 size)
    {
        client::ClientOptions o;
        o.port = m_server->port();
        o.path = "/" + lab::DocRootGenerator::fileNameFor(size).toStdString();
        o.expectedBodyLength = size;
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        server::ServerOptions options;
        options.threads = 2;
        QString error;
        m_server = testing::serveFiles(m_root.path(), {4096, 1 << 20}, options, &error);
        QVERIFY2(m_server, qPrintable(error));
    }
    void cleanupTestCase() { m_server.reset(); }

    // ab's Connection Times: connect + processing is the total; a kept-alive request connects
    // in no time.
    void connectionTimesAsAbKeepsThem()
    {
        const auto before = m_server->stats().bytesSent;
        auto o = optionsFor(4096);
        o.requests = 20;
        o.concurrency = 2;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 20u);
        QCOMPARE(r.connectTimes.count(), 20u);
        QCOMPARE(r.processingTimes.count(), 20u);
        QCOMPARE(r.waitingTimes.count(), 20u);
        const double parts = r.connectTimes.mean() + r.processingTimes.mean();
        QVERIFY2(std::abs(parts - r.latency.mean()) <= 0.01 * r.latency.mean() + 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(parts).arg(r.latency.mean())));
        QVERIFY(r.waitingTimes.max() <= r.processingTimes.max());
        o.keepAlive = true;
        o.concurrency = 1;
        const auto kept = client::ClosedClient(o).run();
        QCOMPARE(kept.connectTimes.min(), 0); // 19 of 20 on the kept-alive connection
        QCOMPARE(kept.connects, 1u);
        // The server counts a write once the syscall returns: let it catch up, so that the
        // next test's baseline does not miss this test's last response.
        QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().bytesSent - before,
                                  r.bytesRead + kept.bytesRead, 2000);
    }

    // ab's request: its User-Agent and Accept lines, which the server parses too.
    void sendsAbsHeaderLines()
    {
        ScriptedServer scripted("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n");
        client::ClientOptions o;
        o.port = scripted.port();
        o.http10 = true;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 1u);
        QCOMPARE(scripted.firstRequest(), QByteArray("GET / HTTP/1.0\r\nHost: 127.0.0.1:") +
                                              QByteArray::number(o.port) +
                                              "\r\nUser-Agent: ServeLab\r\nAccept: */*\r\n\r\n");
    }

    void countsLikeAb_data()
    {
        QTest::addColumn<quint64>("size");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<bool>("http10");
        QTest::addColumn<bool>("verify");
        QTest::addColumn<bool>("abReads");
        QTest::newRow("4K c1") << quint64(4096) << 1 << false << false << false << false;
        QTest::newRow("4K c8 -k") << quint64(4096) << 8 << true << false << false << false;
        QTest::newRow("1M c4") << quint64(1 << 20) << 4 << false << false << false << false;
        QTest::newRow("1M c2 -k") << quint64(1 << 20) << 2 << true << false << false << false;
        // ab's own requests: HTTP/1.0, keep-alive asked for with -k.
        QTest::newRow("4K c1 HTTP/1.0") << quint64(4096) << 1 << false << true << false << false;
        QTest::newRow("4K c4 -k HTTP/1.0") << quint64(4096) << 4 << true << true << false << false;
        QTest::newRow("1M c2 -k verify") << quint64(1 << 20) << 2 << true << false << true << false;
        QTest::newRow("4K c1 HTTP/1.0 verify")
            << quint64(4096) << 1 << false << true << true << false;
        // ab's reads: level-triggered, one 8 KiB recv() per wake-up; nothing may stall.
        QTest::newRow("1M c2 -k ab reads") << quint64(1 << 20) << 2 << true << true << true << true;
        QTest::newRow("4K c1 ab reads") << quint64(4096) << 1 << false << true << false << true;
    }
    void countsLikeAb()
    {
        QFETCH(quint64, size);
        QFETCH(int, concurrency);
        QFETCH(bool, keepAlive);
        QFETCH(bool, http10);
        QFETCH(bool, verify);
        QFETCH(bool, abReads);
        auto o = optionsFor(size);
        o.abReads = abReads;
        if (abReads)
            o.readBufferBytes = 8 * 1024;
        o.requests = 64;
        o.concurrency = concurrency;
        o.keepAlive = keepAlive;
        o.http10 = http10;
        if (verify)
            o.verifyRoot = m_root.path().toStdString();
        const auto before = m_server->stats();
        client::ClosedClient c(o);
        const auto r = c.run();
        QVERIFY(r.fatalError.empty());
        QCOMPARE(r.completed, 64u);
        QCOMPARE(r.ok, 64u);
        QCOMPARE(r.failed(), 0u);
        QCOMPARE(r.bodyBytes, 64 * size);
        QCOMPARE(r.latency.count(), 64u);
        QVERIFY(r.latency.min() > 0);
        QVERIFY(r.elapsedMicros > 0);
        // Every byte the server sent was read, heads included (ab's "Total transferred").
        // The server counts a write after the syscall returns, so it may trail the client a little.
        QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().bytesSent - before.bytesSent, r.bytesRead,
                                  2000);
        QVERIFY(r.bytesRead > r.bodyBytes);
        QCOMPARE(r.connects, keepAlive ? quint64(concurrency) : 64u);
        QTRY_COMPARE_WITH_TIMEOUT(
            m_server->stats().connectionsAccepted - before.connectionsAccepted, r.connects, 2000);
        // KiB/s as ab computes it: all bytes read / 1024 / elapsed seconds.
        QCOMPARE(r.kibPerSecond(), double(r.bytesRead) / 1024.0 / (double(r.elapsedMicros) / 1e6));
    }

    void refusedConnectionsAreCountedAsSuch_data()
    {
        QTest::addColumn<bool>("abReads");
        QTest::newRow("own connect") << false;
        QTest::newRow("ab's connect") << true; // the refusal comes from the second connect()
    }
    void refusedConnectionsAreCountedAsSuch()
    {
        QFETCH(bool, abReads);
        client::ClientOptions o;
        o.abReads = abReads;
        o.port = servelab::server::Listener::freeLoopbackPort();
        o.requests = 20;
        o.concurrency = 4;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.completed, 20u);
        QCOMPARE(r.ok, 0u);
        QCOMPARE(r.errorCount(ErrorKind::ConnectRefused), 20u);
        QCOMPARE(r.dominantError(), ErrorKind::ConnectRefused);
    }

    void statusAndLengthErrors()
    {
        auto o = optionsFor(4096);
        o.path = "/missing";
        o.requests = 3;
        auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::Status4xx), 3u);
        QCOMPARE(r.latency.count(), 3u);

        o = optionsFor(4096);
        o.expectedBodyLength = 4000; // ab's "Length" check: the body is not what was expected
        o.requests = 2;
        r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::WrongLength), 2u);
    }

    void misbehavingServers_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("endless");
        QTest::addColumn<int>("everyMs");
        // A head that never ends: refused past 64 KiB (ResponseParser::maxHeadBytes), at once.
        QTest::newRow("endless head")
            << QByteArray("HTTP/1.1 200 OK\r\n") << int(ErrorKind::ParseError)
            << QByteArray("X-Filler: 0123456789abcdef\r\n") << 0;
        // ... and one that trickles, a byte every 20 ms: the request's timeout still holds.
        QTest::newRow("trickling head") << QByteArray("HTTP/1.1 200 OK\r\nX: ")
                                        << int(ErrorKind::ReadTimeout) << QByteArray("a") << 20;
        // A body that trickles endless past a 300 ms timeout.
        QTest::newRow("trickling body")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
            << int(ErrorKind::ReadTimeout) << QByteArray("b") << 20;
        QTest::newRow("short body")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
            << int(ErrorKind::WrongLength) << QByteArray() << 0;
        QTest::newRow("long body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc")
                                   << int(ErrorKind::WrongLength) << QByteArray() << 0;
        QTest::newRow("garbage") << QByteArray("SSH-2.0-OpenSSH\r\n\r\n")
                                 << int(ErrorKind::ParseError) << QByteArray() << 0;
        QTest::newRow("never answers")
            << QByteArray() << int(ErrorKind::ReadTimeout) << QByteArray() << 0;
        QTest::newRow("500") << QByteArray("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n")
                             << int(ErrorKind::Status5xx) << QByteArray() << 0;
        QTest::newRow("head cut") << QByteArray("HTTP/1.1 200 OK\r\nContent-Le")
                                  << int(ErrorKind::EofBeforeResponse) << QByteArray() << 0;
        QTest::newRow("chunked cut")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc")
            << int(ErrorKind::WrongLength) << QByteArray() << 0;
        QTest::newRow("chunked garbage")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            << int(ErrorKind::ParseError) << QByteArray() << 0;
        QTest::newRow("chunked then more")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "1\r\na\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n")
            << int(ErrorKind::ParseError) << QByteArray() << 0;
    }
    void misbehavingServers()
    {
        QFETCH(QByteArray, reply);
        QFETCH(int, kind);
        QFETCH(QByteArray, endless);
        QFETCH(int, everyMs);
        ScriptedServer server(reply, false, endless, everyMs);
        client::ClientOptions o;
        o.port = server.port();
        o.requests = 2;
        o.timeoutMs = 300;
        const auto started = metrics::monotonicMicros();
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.completed, 2u);
        QCOMPARE(r.ok, 0u);
        QCOMPARE(r.errorCount(static_cast<ErrorKind>(kind)), 2u);
        QVERIFY(metrics::monotonicMicros() - started < 3'000'000);
    }

    // ab reads a response its server closes to the end of the connection, so bytes past the
    // body are seen (wrong length); ServeLab's own reads stop at Content-Length and close.
    void abReadsReadToTheEnd_data()
    {
        QTest::addColumn<bool>("abReads");
        QTest::addColumn<int>("ok");
        QTest::newRow("own reads") << false << 2;
        QTest::newRow("ab's reads") << true << 0;
    }
    void abReadsReadToTheEnd()
    {
        QFETCH(bool, abReads);
        QFETCH(int, ok);
        // The extra byte comes 200 ms after the answer: ServeLab's own reads are long gone.
        ScriptedServer server("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false, "x", 200);
        client::ClientOptions o;
        o.port = server.port();
        o.requests = 2;
        o.http10 = true;
        o.abReads = abReads;
        o.readBufferBytes = 8 * 1024;
        o.timeoutMs = 2000;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.completed, 2u);
        QCOMPARE(r.ok, quint64(ok));
        QCOMPARE(r.errorCount(ErrorKind::WrongLength), quint64(2 - ok));
    }

    // A server that resets the connection in the middle of a body: reset, not a short body.
    void resetMidBody()
    {
        QByteArray reply("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n");
        reply.append(QByteArray(2000, 'x'));
        ScriptedServer server(reply, true);
        client::ClientOptions o;
        o.port = server.port();
        o.requests = 3;
        o.timeoutMs = 2000;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.completed, 3u);
        QCOMPARE(r.errorCount(ErrorKind::Reset), 3u);
    }

    // Chunked answers are read to their last chunk and checked like any other body.
    void chunkedBodiesAreReadAndVerified_data()
    {
        QTest::addColumn<QByteArray>("body"); // the chunked body the server sends
        QTest::addColumn<int>("kind");        // -1: ok
        QTest::newRow("right") << QByteArray("3\r\nhel\r\n2;x=y\r\nlo\r\n0\r\n\r\n") << -1;
        QTest::newRow("trailer") << QByteArray("5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n") << -1;
        QTest::newRow("one byte off")
            << QByteArray("3\r\nhel\r\n2\r\nlp\r\n0\r\n\r\n") << int(ErrorKind::WrongContent);
        QTest::newRow("too short")
            << QByteArray("4\r\nhell\r\n0\r\n\r\n") << int(ErrorKind::WrongLength);
        QTest::newRow("too long") << QByteArray("6\r\nhello!\r\n0\r\n\r\n")
                                  << int(ErrorKind::WrongLength);
    }
    void chunkedBodiesAreReadAndVerified()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, kind);
        QTemporaryDir root;
        QFile file(root.filePath(QStringLiteral("x.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("hello") == 5);
        file.close();
        ScriptedServer server("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body);
        client::ClientOptions o;
        o.port = server.port();
        o.path = "/x.txt";
        o.requests = 2;
        o.verifyRoot = root.path().toStdString();
        const auto r = client::ClosedClient(o).run();
        QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
        QCOMPARE(r.completed, 2u);
        if (kind < 0) {
            QCOMPARE(r.ok, 2u);
            QCOMPARE(r.bodyBytes, 10u); // the data, not the framing
        } else {
            QCOMPARE(r.errorCount(static_cast<ErrorKind>(kind)), 2u);
        }
    }

    // --verify against the built-in server: a root whose copy of the file differs in one byte
    // near its end makes every answer wrong_content; a path with no file there is refused.
    void verificationCatchesOneByte()
    {
        const QString name = lab::DocRootGenerator::fileNameFor(1 << 20);
        QTemporaryDir other;
        QFile original(m_root.filePath(name));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray bytes = original.readAll();
        bytes[bytes.size() - 10] = char(bytes[bytes.size() - 10] ^ 1);
        QFile copy(other.filePath(name));
        QVERIFY(copy.open(QIODevice::WriteOnly) && copy.write(bytes) == bytes.size());
        copy.close();
        auto o = optionsFor(1 << 20);
        o.requests = 4;
        o.concurrency = 2;
        o.keepAlive = true;
        o.verifyRoot = other.path().toStdString();
        auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::WrongContent), 4u);
        QCOMPARE(r.ok, 0u);

        o.path = "/not-there.bin";
        r = client::ClosedClient(o).run();
        QVERIFY(r.fatalError.find("cannot verify /not-there.bin") != std::string::npos);
        QCOMPARE(r.completed, 0u);
    }

    // The client itself out of descriptors is named as such, not taken for a connect error:
    // the limit leaves room for the run's epoll set and stop eventfd, and no socket.
    void clientOutOfDescriptorsIsItsOwnKind()
    {
        client::ClientOptions o;
        o.port = servelab::server::Listener::freeLoopbackPort();
        o.requests = 6;
        o.concurrency = 2;
        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_NOFILE, &saved), 0);
        rlim_t limit = 0; // just above the second free descriptor number
        for (int free = 0; free < 2; ++limit)
            free += fcntl(int(limit), F_GETFD) == -1 ? 1 : 0;
        const rlimit low{limit, saved.rlim_max};
        QCOMPARE(setrlimit(RLIMIT_NOFILE, &low), 0);
        const auto r = client::ClosedClient(o).run();
        setrlimit(RLIMIT_NOFILE, &saved);
        QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
        QCOMPARE(r.completed, 6u);
        QCOMPARE(r.errorCount(ErrorKind::FdExhausted), 6u);
        QCOMPARE(r.errorCount(ErrorKind::ConnectError), 0u);
        QVERIFY(client::errorKindText(ErrorKind::FdExhausted).find("ulimit -n") !=
                std::string_view::npos);
    }

    void stopFromAnotherThreadIsPrompt()
    {
        ScriptedServer silent{QByteArray()};
        client::ClientOptions o;
        o.port = silent.port();
        o.requests = 10;
        o.concurrency = 10;
        o.timeoutMs = 60000;
        client::SampleQueue samples;
        o.samples = &samples;
        client::ClosedClient c(o);
        std::atomic<bool> waiting{false};
        std::atomic<std::int64_t> stoppedAt{0};
        // The stop comes once a sample shows all ten connections waiting on the silent server,
        // however long this machine took to open them (at most 30 s).
        std::thread stopper([&] {
            const auto until = metrics::monotonicMicros() + 30'000'000;
            while (!waiting && metrics::monotonicMicros() < until) {
                for (const auto &sample : samples.drain())
                    waiting = waiting || sample.openConnections == 10;
                if (!waiting)
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            stoppedAt = metrics::monotonicMicros();
            c.stop();
        });
        const auto r = c.run();
        const auto returned = metrics::monotonicMicros();
        stopper.join();
        QVERIFY2(waiting, "the ten connections were not open within 30 s");
        const auto took = returned - stoppedAt.load(); // from the stop
        QVERIFY2(took < 300'000, qPrintable(QString::number(took)));
        QCOMPARE(r.errorCount(ErrorKind::AbortedAtDeadline), 10u);
    }

    void deadlineEndsTheRun()
    {
        ScriptedServer silent{QByteArray()};
        client::ClientOptions o;
        o.port = silent.port();
        o.requests = 5;
        o.concurrency = 5;
        o.deadlineMs = 150;
        const auto started = metrics::monotonicMicros();
        const auto r = client::ClosedClient(o).run();
        QVERIFY(metrics::monotonicMicros() - started < 500'000);
        QCOMPARE(r.errorCount(ErrorKind::AbortedAtDeadline), 5u);
    }
};

QTEST_GUILESS_MAIN(TestClosedClient)
#include "tst_closedclient.moc"
