// SPDX-License-Identifier: Apache-2.0
#include "h2testclient.h"
#include "lab/spec/docrootgenerator.h"
#include "rawhttpconnection.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"
#include "testshard.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace servelab;

// The Server contract, run once per mode and header-coalescing setting (see main()).
class TestServer : public QObject
{
    Q_OBJECT
public:
    TestServer(std::string mode, bool coalesce, int fileCache,
               server::Handoff handoff = server::Handoff::Mutex)
        : m_mode(std::move(mode)), m_coalesce(coalesce), m_fileCache(fileCache), m_handoff(handoff)
    {}

private:
    std::string m_mode;
    bool m_coalesce;
    int m_fileCache;
    server::Handoff m_handoff;
    QTemporaryDir m_root;
    QList<quint64> m_sizes{
        0,       1,       4096, 48 * 1024 - 1, 48 * 1024, 48 * 1024 + 1, 1 << 20, (1 << 20) + 7,
        5 << 20, 32 << 20};

    server::ServerOptions defaults(int threads = 2)
    {
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        // Thread per connection: the pool must outnumber the connections a test holds open at
        // once (20 slow clients plus normal ones), as a real BIO pool (maxThreads 200) would.
        options.threads = m_mode.starts_with("blocking") ? std::max(threads, 32) : threads;
        options.sendfileChunk = 256 * 1024; // several chunks per large file: exercises yielding
        options.mode = m_mode;
        options.coalesceHeader = m_coalesce;
        options.handoff = m_handoff;
        options.openFileCacheEntries = m_fileCache;
        return options;
    }
    // With the open-file cache on, a file stays open once served: serve it once before a test
    // takes its fd baseline, so the baseline includes it.
    void warm(server::Server &s, const QByteArray &path)
    {
        if (m_fileCache == 0)
            return;
        RawHttpConnection c(s.port());
        QVERIFY(c.send("GET " + path + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(c.closedByPeer()); // the server's socket is gone before the baseline is taken
    }

    std::unique_ptr<server::Server> startServer(int threads = 2)
    {
        return startServer(defaults(threads));
    }
    std::unique_ptr<server::Server> startServer(const server::ServerOptions &options)
    {
        std::string error;
        auto s = server::createServer(options, &error);
        if (!s || !s->start(&error))
            qWarning("%s", error.c_str());
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QString error;
        QVERIFY2(lab::DocRootGenerator::ensure(m_root.path(), m_sizes, &error), qPrintable(error));
        QFile index(m_root.filePath(QStringLiteral("index.html")));
        QVERIFY(index.open(QIODevice::WriteOnly));
        index.write("<h1>hello</h1>\n");
    }

    void servesExactBytes_data()
    {
        QTest::addColumn<quint64>("size");
        for (quint64 size : m_sizes)
            QTest::newRow(qPrintable(QString::number(size))) << size;
    }
    void servesExactBytes()
    {
        QFETCH(quint64, size);
        const int before = RawHttpConnection::countOpenFds();
        {
            auto s = startServer();
            QVERIFY(s);
            QVERIFY(s->port() != 0);
            RawHttpConnection c(s->port());
            QVERIFY(c.connected());
            const QByteArray path = "/" + lab::DocRootGenerator::fileNameFor(size).toUtf8();
            QVERIFY(c.send("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n"));
            QByteArray head, body;
            QVERIFY(c.readResponse(&head, &body));
            QVERIFY2(head.startsWith("HTTP/1.1 200 OK\r\n"), head.constData());
            QVERIFY(head.contains("Content-Length: " + QByteArray::number(size) + "\r\n"));
            QVERIFY(head.contains("Last-Modified: "));
            QVERIFY(head.contains("Date: "));
            QCOMPARE(body.size(), qsizetype(size));
            QVERIFY(body == lab::DocRootGenerator::contentFor(size));
            s->stop();
            QCOMPARE(s->stats().requests, 1u);
            QCOMPARE(s->stats().responses2xx, 1u);
            QCOMPARE(s->stats().downloadsStarted, 1u);
            QCOMPARE(s->stats().activeDownloads(), 0u);
            QCOMPARE(s->stats().connectionsOpen(), 0u); // stop() closed the kept-alive one
            QVERIFY(s->stats().bytesSent >= size);
        }
        QCOMPARE(RawHttpConnection::countOpenFds(), before);
    }

    void keepAliveAndPipelining()
    {
        auto s = startServer(1);
        QVERIFY(s);
        RawHttpConnection c(s->port());
        // Three requests in one write: answered in order on the one connection.
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"
                       "GET /1M.bin HTTP/1.1\r\nHost: t\r\n\r\n"
                       "GET /index.html HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QCOMPARE(body, lab::DocRootGenerator::contentFor(4096));
        QVERIFY(!head.contains("Connection: close"));
        QVERIFY(c.readResponse(&head, &body));
        QCOMPARE(body, lab::DocRootGenerator::contentFor(1 << 20));
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.contains("Content-Type: text/html"));
        QVERIFY(head.contains("Connection: close\r\n"));
        QCOMPARE(body, QByteArray("<h1>hello</h1>\n"));
        QVERIFY(c.closedByPeer());
    }

    void http10ClosesUnlessAsked()
    {
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /4K.bin HTTP/1.0\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.contains("Connection: close"));
        QVERIFY(c.closedByPeer());

        RawHttpConnection k(s->port());
        QVERIFY(k.send(
            "GET /4K.bin HTTP/1.0\r\nConnection: keep-alive\r\n\r\nHEAD /4K.bin HTTP/1.0\r\n\r\n"));
        QVERIFY(k.readResponse(&head, &body));
        QVERIFY(head.contains("Connection: keep-alive"));
        QVERIFY(k.readResponse(&head, &body, true));
        QVERIFY(head.contains("Content-Length: 4096"));
        QVERIFY(body.isEmpty());
        QVERIFY(k.closedByPeer());
    }

    void errorStatuses_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QByteArray>("status");
        QTest::addColumn<bool>("closes");
        QTest::newRow("missing") << QByteArray("GET /nope HTTP/1.1\r\nHost: t\r\n\r\n")
                                 << QByteArray("404") << false;
        QTest::newRow("post")
            << QByteArray("POST /4K.bin HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc")
            << QByteArray("405") << false;
        QTest::newRow("traversal") << QByteArray("GET /../etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n")
                                   << QByteArray("400") << true;
        QTest::newRow("encoded traversal")
            << QByteArray("GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: t\r\n\r\n")
            << QByteArray("400") << true;
        QTest::newRow("no host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << QByteArray("400")
                                 << true;
        QTest::newRow("long uri") << "GET /" + QByteArray(9000, 'a') +
                                         " HTTP/1.1\r\nHost: t\r\n\r\n"
                                  << QByteArray("414") << true;
        QTest::newRow("long field")
            << "GET / HTTP/1.1\r\nHost: t\r\nX: " + QByteArray(9000, 'a') + "\r\n\r\n"
            << QByteArray("431") << true;
    }
    void errorStatuses()
    {
        QFETCH(QByteArray, request);
        QFETCH(QByteArray, status);
        QFETCH(bool, closes);
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send(request));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY2(head.startsWith("HTTP/1.1 " + status), head.constData());
        QCOMPARE(head.contains("Connection: close"), closes);
        if (closes) {
            QVERIFY(c.closedByPeer());
        } else {
            // The connection stays usable: the body of the refused request was skipped.
            QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
            QVERIFY(c.readResponse(&head, &body));
            QVERIFY(head.startsWith("HTTP/1.1 200"));
            QCOMPARE(body.size(), 4096);
        }
    }

    void conditionalRequests()
    {
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.contains("Accept-Ranges: bytes\r\n"));
        const auto at = head.indexOf("Last-Modified: ") + 15;
        const QByteArray modified = head.mid(at, head.indexOf('\r', at) - at);
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\nIf-Modified-Since: " + modified +
                       "\r\n\r\n"));
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY2(head.startsWith("HTTP/1.1 304 Not Modified\r\n"), head.constData());
        QVERIFY(!head.contains("Content-Length"));
        QVERIFY(body.isEmpty());
        QVERIFY(c.send(
            "GET /4K.bin HTTP/1.1\r\nHost: t\r\nIf-Modified-Since: Thu, 01 Jan 1970 00:00:01 "
            "GMT\r\n\r\n"));
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.startsWith("HTTP/1.1 200"));
        QCOMPARE(body.size(), 4096);
    }

    void byteRanges_data()
    {
        QTest::addColumn<quint64>("size");
        QTest::addColumn<QByteArray>("range");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::newRow("small middle")
            << quint64(4096) << QByteArray("bytes=100-199") << 206 << qint64(100) << qint64(199);
        QTest::newRow("small suffix")
            << quint64(4096) << QByteArray("bytes=-10") << 206 << qint64(4086) << qint64(4095);
        QTest::newRow("large open end") << quint64(5 << 20) << QByteArray("bytes=5000000-") << 206
                                        << qint64(5000000) << qint64((5 << 20) - 1);
        QTest::newRow("large middle") << quint64(5 << 20) << QByteArray("bytes=1000000-3999999")
                                      << 206 << qint64(1000000) << qint64(3999999);
        QTest::newRow("past the end")
            << quint64(4096) << QByteArray("bytes=5000-") << 416 << qint64(0) << qint64(-1);
        QTest::newRow("multi is whole")
            << quint64(4096) << QByteArray("bytes=0-1,5-6") << 200 << qint64(0) << qint64(4095);
    }
    void byteRanges()
    {
        QFETCH(quint64, size);
        QFETCH(QByteArray, range);
        QFETCH(int, status);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /" + lab::DocRootGenerator::fileNameFor(size).toUtf8() +
                       " HTTP/1.1\r\nHost: t\r\nRange: " + range + "\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY2(head.startsWith("HTTP/1.1 " + QByteArray::number(status)), head.constData());
        if (status == 206)
            QVERIFY(head.contains("Content-Range: bytes " + QByteArray::number(first) + '-' +
                                  QByteArray::number(last) + '/' + QByteArray::number(size) +
                                  "\r\n"));
        if (status == 416)
            QVERIFY(head.contains("Content-Range: bytes */" + QByteArray::number(size) + "\r\n"));
        QCOMPARE(body, lab::DocRootGenerator::contentFor(size).mid(first, last - first + 1));
        // The connection stays usable after a partial response.
        QVERIFY(c.send("HEAD /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QVERIFY(c.readResponse(&head, &body, true));
        QVERIFY(head.startsWith("HTTP/1.1 200"));
    }

    void requestBodiesAreDrained()
    {
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "5;ext=1\r\nhello\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\n"
                       "GET /index.html HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nbody"
                       "GET /1.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QCOMPARE(body.size(), 4096);
        QVERIFY(c.readResponse(&head, &body));
        QCOMPARE(body, QByteArray("<h1>hello</h1>\n"));
        QVERIFY(c.readResponse(&head, &body));
        QCOMPARE(body.size(), 1);
    }

    void oversizedBodyIs413()
    {
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\nsome"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY2(head.startsWith("HTTP/1.1 413"), head.constData());
        QVERIFY(head.contains("Connection: close"));
        QVERIFY(c.closedByPeer());
    }

    void errorResponseSurvivesUnreadInput()
    {
        // No Host: 400 and close. The 200 KB behind it are unread when the server closes; a plain
        // close() would answer them with RST and could destroy the 400 on its way. Lingering
        // close half-closes and drains instead, so the client reads the whole response.
        auto s = startServer(1);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /4K.bin HTTP/1.1\r\n\r\n" + QByteArray(200000, 'x')));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.startsWith("HTTP/1.1 400"));
        QVERIFY(body.contains("Bad Request"));
        QVERIFY(c.closedByPeer());
    }

    void maxRequestsPerConnection()
    {
        auto options = defaults(1);
        options.maxRequestsPerConnection = 2;
        auto s = startServer(options);
        RawHttpConnection c(s->port());
        QVERIFY(
            c.send("GET /1.bin HTTP/1.1\r\nHost: t\r\n\r\nGET /1.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(!head.contains("Connection: close"));
        QVERIFY(c.readResponse(&head, &body));
        QVERIFY(head.contains("Connection: close"));
        QVERIFY(c.closedByPeer());
    }

    // --defer-accept (TCP_DEFER_ACCEPT): a connection that has sent nothing is not accepted yet,
    // one whose request has come is. Without it both are, in the order they came.
    void deferAcceptWaitsForTheRequest_data()
    {
        QTest::addColumn<bool>("defer");
        QTest::addColumn<quint64>("accepted");
        QTest::newRow("deferred") << true << quint64(1);
        QTest::newRow("at once") << false << quint64(2);
    }
    void deferAcceptWaitsForTheRequest()
    {
        QFETCH(bool, defer);
        QFETCH(quint64, accepted);
        auto options = defaults(1);
        options.deferAccept = defer;
        auto s = startServer(options);
        QVERIFY(s);
        RawHttpConnection silent(s->port());
        RawHttpConnection asking(s->port());
        QVERIFY(asking.send("GET /1.bin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(asking.readResponse(&head, &body));
        QVERIFY(head.startsWith("HTTP/1.1 200"));
        QCOMPARE(s->stats().connectionsAccepted, accepted);
    }

    void keepAliveTimeoutClosesIdleConnections()
    {
        auto options = defaults(1);
        options.keepAliveTimeoutMs = 300;
        auto s = startServer(options);
        RawHttpConnection c(s->port());
        QVERIFY(c.send("GET /1.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(c.readResponse(&head, &body));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(c.closedByPeer()); // blocks until the server closes (or the 5 s receive timeout)
        QVERIFY2(clock.elapsed() >= 250 && clock.elapsed() < 2000,
                 qPrintable(QString::number(clock.elapsed())));
    }

    void slowlorisIsCutAtTheHeaderDeadline()
    {
        auto options = defaults(2);
        options.headerTimeoutMs = 600;
        auto s = startServer(options);
        // Sockets, not fds: with two threads the other one's open-file cache may open the
        // file during the test (epoll and uring keep one cache per thread).
        const int before = RawHttpConnection::countOpenSockets();
        std::vector<std::unique_ptr<RawHttpConnection>> dribblers;
        for (int i = 0; i < 20; ++i) {
            dribblers.push_back(std::make_unique<RawHttpConnection>(s->port()));
            QVERIFY(dribblers.back()->send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n"));
        }
        // Each dribbler sends one more header byte every 50 ms: bytes must not reset the deadline.
        std::atomic<bool> stop{false};
        std::thread dribble([&] {
            for (int round = 0; round < 60 && !stop; ++round) {
                for (auto &d : dribblers)
                    static_cast<void>(d->send("X")); // the server may have closed it
                // The stimulus: the dribble's pace. A slower machine only dribbles longer.
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
        // Normal clients are served all the while.
        QElapsedTimer clock;
        clock.start();
        int served = 0;
        while (clock.elapsed() < 400) {
            RawHttpConnection normal(s->port());
            QVERIFY(normal.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
            QByteArray head, body;
            QVERIFY(normal.readResponse(&head, &body));
            QCOMPARE(body.size(), 4096);
            ++served;
        }
        QVERIFY(served > 0);
        for (auto &d : dribblers) {
            QByteArray head, body;
            QVERIFY(d->readResponse(&head, &body)); // the 408, then EOF
            QVERIFY2(head.startsWith("HTTP/1.1 408"), head.constData());
        }
        const qint64 cut = clock.elapsed();
        stop = true;
        dribble.join();
        // Before the dribble's 60 rounds (3 s at least) were over: a deadline that bytes reset
        // could not cut them before those rounds and 600 ms more.
        QVERIFY2(cut < 3000, qPrintable(QString::number(cut)));
        dribblers.clear();
        QTRY_COMPARE_WITH_TIMEOUT(RawHttpConnection::countOpenSockets(), before, 2000);
    }

    void stalledReaderIsCutAtTheSendTimeout()
    {
        auto options = defaults(1);
        options.sendTimeoutMs = 300;
        auto s = startServer(options);
        warm(*s, "/5M.bin");
        const int before = RawHttpConnection::countOpenFds();
        {
            RawHttpConnection c(s->port());
            const int small = 4096;
            setsockopt(c.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
            QVERIFY(c.send("GET /5M.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
            // Never read: the server's socket fills up and stays full.
            // The live counters see one open connection with one download in progress.
            QTRY_COMPARE_WITH_TIMEOUT(s->stats().activeDownloads(), 1u, 2000);
            QCOMPARE(s->stats().connectionsOpen(), 1u);
            // The server side of the connection is closed: one fd fewer than while it was open.
            QTRY_COMPARE_WITH_TIMEOUT(RawHttpConnection::countOpenFds(), before + 1, 3000);
            QCOMPARE(s->stats().activeDownloads(), 0u);
            QCOMPARE(s->stats().connectionsOpen(), 0u);
        }
        QCOMPARE(RawHttpConnection::countOpenFds(), before);
    }

    void peerResetAndCancelMidDownload_data()
    {
        QTest::addColumn<bool>("reset");
        QTest::newRow("reset (RST)") << true;
        QTest::newRow("cancel (FIN)") << false;
    }
    void peerResetAndCancelMidDownload()
    {
        QFETCH(bool, reset);
        auto s = startServer(1);
        warm(*s, "/32M.bin");
        warm(*s, "/4K.bin");
        const int before = RawHttpConnection::countOpenFds();
        for (int i = 0; i < 5; ++i) {
            RawHttpConnection c(s->port());
            QVERIFY(c.send("GET /32M.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
            char buffer[65536];
            QVERIFY(::recv(c.fd(), buffer, sizeof buffer, 0) > 0);
            if (reset) {
                const linger abort{1, 0};
                setsockopt(c.fd(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
            }
        } // each client leaves with 32 MiB unread
        // The server noticed, closed its sockets and files, and still serves.
        QTRY_COMPARE_WITH_TIMEOUT(RawHttpConnection::countOpenFds(), before, 3000);
        RawHttpConnection after(s->port());
        QVERIFY(after.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head, body;
        QVERIFY(after.readResponse(&head, &body));
        QCOMPARE(body.size(), 4096);
    }

    // multiplex only: at most maxDownloads are written at once; the others wait in the queue
    // (the live counter says how many) and are all served once slots free up.
    void multiplexQueuesDownloadsBeyondItsLimit()
    {
        if (!m_mode.starts_with("multiplex"))
            QSKIP("the download queue is multiplex's");
        auto options = defaults(1);
        options.maxDownloads = 2;
        auto s = startServer(options);
        std::vector<std::unique_ptr<RawHttpConnection>> clients;
        for (int i = 0; i < 4; ++i) {
            clients.push_back(std::make_unique<RawHttpConnection>(s->port()));
            QVERIFY(clients.back()->send("GET /32M.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        }
        // Nobody reads yet: two downloads fill their sockets, two wait for a slot.
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().activeDownloads(), 4u, 3000);
        QCOMPARE(s->stats().queued, 2u);
        // The stimulus is time: nothing must move for 200 ms, checked once the queue is reached.
        QTest::qWait(200);
        QCOMPARE(s->stats().queued, 2u); // and stay waiting while the active ones are stuck
        std::vector<qint64> received(clients.size(), -1);
        std::vector<std::thread> readers;
        for (std::size_t i = 0; i < clients.size(); ++i)
            readers.emplace_back([&, i] {
                QByteArray head, body;
                if (clients[i]->readResponse(&head, &body))
                    received[i] = body.size();
            });
        for (auto &reader : readers)
            reader.join();
        for (qint64 size : received)
            QCOMPARE(size, qint64(32 << 20));
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().activeDownloads(), 0u, 3000);
        QCOMPARE(s->stats().queued, 0u);
    }

    void portInUseIsAClearError()
    {
        auto first = startServer(1);
        QVERIFY(first);
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        options.port = first->port();
        std::string error;
        auto second = server::createServer(options, &error);
        QVERIFY(second);
        QVERIFY(!second->start(&error));
        QVERIFY2(error.find("Address already in use") != std::string::npos, error.c_str());
        QVERIFY(error.find(std::to_string(first->port())) != std::string::npos);
    }

    void badOptionsAreRefused()
    {
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        options.mode = "bogus+copy";
        std::string error;
        QVERIFY(!server::createServer(options, &error));
        QVERIFY2(error.find("server mode 'bogus+copy': there is no event model 'bogus'") !=
                     std::string::npos,
                 error.c_str());
        // Each refusal names what is wrong and what to write instead.
        const std::pair<const char *, const char *> refused[] = {
            {"epoll", "write model+transfer"},
            {"epoll+zerocopy", "there is no body transfer 'zerocopy'"},
            {"qt+sendfile", "use qt+copy"},
            {"qt+mmap", "use qt+copy"},
        };
        for (const auto &[mode, reason] : refused) {
            options.mode = mode;
            error.clear();
            QVERIFY2(!server::createServer(options, &error), mode);
            QVERIFY2(error.find(reason) != std::string::npos, error.c_str());
        }
        options.mode = "qt+copy";
        options.maxConnections = -1;
        auto unlimitedQt = server::createServer(options, &error);
        QVERIFY(unlimitedQt);
        QVERIFY(!unlimitedQt->start(&error));
        QVERIFY2(error.find("needs a connection limit") != std::string::npos, error.c_str());
        options.maxConnections = 0;
        options.mode = "epoll+sendfile";
        options.root = "/nonexistent/servelab";
        QVERIFY(!server::createServer(options, &error));
        QVERIFY2(error.find("/nonexistent/servelab") != std::string::npos, error.c_str());
    }

    void stopFromAnotherThreadWithOpenConnections()
    {
        const int before = RawHttpConnection::countOpenFds();
        {
            auto s = startServer(2);
            RawHttpConnection idle(s->port());
            RawHttpConnection half(s->port());
            QVERIFY(half.send("GET /4K.bin HTTP/1.1\r\n")); // a head that never completes
            // Both accepted: the stop meets open connections, however late the server got there.
            QTRY_COMPARE_WITH_TIMEOUT(s->stats().connectionsOpen(), 2u, 10000);
            std::thread stopper([&] { s->stop(); });
            stopper.join();
            QVERIFY(idle.closedByPeer());
            // The stop may come before the server read the half head: then it is a reset.
            QVERIFY(half.closedOrReset());
            s->stop(); // idempotent
        }
        QCOMPARE(RawHttpConnection::countOpenFds(), before);
    }

    // --http2: every size at once on one h2c connection, beside a 404, a HEAD and a range, each
    // byte-exact, while HTTP/1.1 goes on being served on the same port.
    void http2StreamsSideBySide()
    {
        if (m_mode.starts_with("qt") || m_mode.starts_with("multiplex"))
            QSKIP("this model refuses --http2");
        const int before = RawHttpConnection::countOpenFds();
        {
            auto options = defaults();
            options.http2 = true;
            auto s = startServer(options);
            QVERIFY(s);
            QList<QByteArray> paths;
            for (quint64 size : m_sizes)
                paths.append("/" + lab::DocRootGenerator::fileNameFor(size).toUtf8());
            paths.append("/missing.bin");
            H2TestClient client(s->port());
            QVERIFY(client.connected());
            QList<H2TestClient::Response> got;
            QVERIFY(client.fetch(paths, &got));
            for (int i = 0; i < m_sizes.size(); ++i) {
                QCOMPARE(got[i].status, 200);
                QCOMPARE(got[i].error, 0u);
                QCOMPARE(got[i].body.size(), qsizetype(m_sizes[i]));
                QVERIFY2(got[i].body == lab::DocRootGenerator::contentFor(m_sizes[i]),
                         paths[i].constData());
                // The head's fields, as over HTTP/1.1, lower-case (libnghttp2 would refuse any
                // other, and a Connection field).
                QCOMPARE(got[i].fields.value("content-length"), QByteArray::number(m_sizes[i]));
                QCOMPARE(got[i].fields.value("accept-ranges"), QByteArray("bytes"));
                QCOMPARE(got[i].fields.value("server"), QByteArray("ServeLab"));
                QVERIFY(got[i].fields.value("last-modified").endsWith(" GMT"));
                QVERIFY(got[i].fields.value("date").endsWith(" GMT"));
            }
            QCOMPARE(got.last().status, 404);
            QVERIFY(got.last().body.contains("Not Found"));
            QCOMPARE(got.last().fields.value("content-type"),
                     QByteArray("text/html; charset=utf-8"));
            QCOMPARE(got.last().fields.value("content-length"),
                     QByteArray::number(got.last().body.size()));
            H2TestClient second(s->port());
            QVERIFY(second.fetch({"/index.html"}, &got, "HEAD"));
            QCOMPARE(got[0].status, 200);
            QVERIFY(got[0].body.isEmpty());
            // HTTP/1.1 beside it, on another connection.
            RawHttpConnection h1(s->port());
            QVERIFY(h1.send("GET /index.html HTTP/1.1\r\nHost: t\r\n\r\n"));
            QByteArray head, body;
            QVERIFY(h1.readResponse(&head, &body));
            QCOMPARE(body, QByteArray("<h1>hello</h1>\n"));
            QTRY_COMPARE_WITH_TIMEOUT(s->stats().h2Streams, quint64(m_sizes.size() + 2), 10000);
            s->stop();
            QCOMPARE(s->stats().responses4xx, 1u);
            // Every response counts as a download, h2 stream or not, and each one ended.
            QCOMPARE(s->stats().downloadsStarted, quint64(m_sizes.size() + 3));
            QCOMPARE(s->stats().activeDownloads(), 0u);
        }
        QCOMPARE(RawHttpConnection::countOpenFds(), before);
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    int failures = 0;
    struct Variant
    {
        bool coalesce;
        int fileCache;
        server::Handoff handoff = server::Handoff::Mutex;
    };
    // SERVELAB_TEST_MODES=uring+copy,qt+copy narrows the run while working on a model.
    const QStringList only =
        qEnvironmentVariable("SERVELAB_TEST_MODES").split(QLatin1Char(','), Qt::SkipEmptyParts);
    // One shard of the runs when ctest runs them side by side (testshard.h).
    TestShard &shard = TestShard::current();
    for (const auto &mode : server::availableModes()) {
        if (!only.isEmpty() && !only.contains(QString::fromStdString(mode.name())))
            continue;
        std::vector<Variant> variants{{true, 0}, {false, 0}, {true, 64}};
        if (mode.name().rfind("poller", 0) == 0) // the poller's lock-free hand-off (seed 004)
            variants.push_back({true, 0, server::Handoff::LockFree});
        for (const Variant v : variants) {
            if (!shard.takesNext())
                continue;
            qInfo("=== mode %s, header coalescing %s, open-file cache %d, hand-off %s",
                  mode.name().c_str(), v.coalesce ? "on" : "off", v.fileCache,
                  v.handoff == server::Handoff::LockFree ? "lock-free" : "mutex");
            TestServer test(mode.name(), v.coalesce, v.fileCache, v.handoff);
            failures += QTest::qExec(&test, argc, argv);
        }
    }
    return failures;
}

#include "tst_server.moc"
