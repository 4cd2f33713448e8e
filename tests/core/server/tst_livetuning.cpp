// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/servertuning.h"
#include "procstat.h"
#include "rawhttpconnection.h"
#include "server/server.h"
#include "server/serveroptions.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace servelab;

namespace {

// Keeps one kept-alive connection busy with GET /64K.bin until told to stop, counting answers
// (a new connection when the server closes one: it does after 1,000 requests).
class Loader
{
public:
    explicit Loader(quint16 port)
        : m_thread([this, port] {
              while (!m_stop.load()) {
                  RawHttpConnection c(port);
                  QByteArray head;
                  while (!m_stop.load() && c.send("GET /64K.bin HTTP/1.1\r\nHost: t\r\n\r\n") &&
                         c.readResponse(&head) == 200)
                      m_done.fetch_add(1);
              }
          })
    {}
    ~Loader()
    {
        m_stop.store(true);
        m_thread.join();
    }
    int done() const { return m_done.load(); }

private:
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_done{0};
    std::thread m_thread;
};

// A client that asks for a large file and never reads it: a tiny receive window, so the
// server's socket fills and a writer that blocks on it (multiplex's, as grizzly's) is held.
int stall(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int small = 4096;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    const QByteArray request = "GET /32M.bin HTTP/1.1\r\nHost: t\r\n\r\n";
    [[maybe_unused]] auto n = ::send(fd, request.constData(), std::size_t(request.size()), 0);
    return fd;
}

} // namespace

class TestLiveTuning : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;

    server::ServerOptions options(const char *mode, int threads)
    {
        server::ServerOptions o;
        o.root = m_root.path().toStdString();
        o.mode = mode;
        o.threads = threads;
        return o;
    }
    std::unique_ptr<server::Server> start(const server::ServerOptions &o)
    {
        std::string error;
        auto s = server::createServer(o, &error);
        if (!s || !s->start(&error))
            qWarning("%s", error.c_str());
        return s;
    }
    static int threads() { return procstat::threadCount(getpid()); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        for (const auto &[name, size] : {std::pair{"64K.bin", 64 << 10}, {"32M.bin", 32 << 20}}) {
            QFile f(m_root.filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(size));
        }
    }

    // Issue 19's step test at the server: one multiplex writer is held by a client that does
    // not read, so the others' downloads wait behind it; 8 writers, tuned in, serve them at
    // once, and the threads follow both ways.
    void multiplexWritersGrowAndShrink()
    {
        auto server = start(options("multiplex+sendfile", 1));
        QVERIFY(server);
        const int staller = stall(server->port());
        QVERIFY(staller >= 0);
        // The writer is on it, and stays: the socket is full and the send timeout 60 s away.
        QTRY_VERIFY_WITH_TIMEOUT(server->stats().bytesSent > 0, 5000);
        Loader loader(server->port());
        const int idle = threads(); // the server's, the test's and the loader's
        // The loader's request is in, its download ready for a writer, and none comes.
        QTRY_VERIFY_WITH_TIMEOUT(server->stats().requests == 2, 5000);
        QCOMPARE(loader.done(), 0);

        QString error;
        QVERIFY2(lab::ServerTuning::tune(*server, {QStringLiteral("threads=8")}, &error),
                 qPrintable(error));
        QCOMPARE(server->options().threads, 8);
        QTRY_COMPARE_WITH_TIMEOUT(threads(), idle + 7, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(loader.done() > 50, 10000); // the step

        QVERIFY2(lab::ServerTuning::tune(*server, {QStringLiteral("threads=2")}, &error),
                 qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(threads(), idle + 1, 5000);
        const int shrunk = loader.done();
        QTRY_VERIFY_WITH_TIMEOUT(loader.done() > shrunk + 50, 10000); // one writer is free
        ::close(staller);
        server->stop();
    }

    // max-downloads, lowered to 1 with a stalled download active: the loader's downloads queue
    // behind it whatever the writers; raised again, they go.
    void multiplexMaxDownloadsLive()
    {
        auto o = options("multiplex+sendfile", 4);
        o.maxDownloads = 1;
        auto server = start(o);
        QVERIFY(server);
        const int staller = stall(server->port());
        QTRY_VERIFY_WITH_TIMEOUT(server->stats().bytesSent > 0, 5000);
        Loader loader(server->port());
        QTRY_COMPARE_WITH_TIMEOUT(server->stats().queued, 1u, 5000); // waiting for a slot
        QCOMPARE(loader.done(), 0);
        QString error;
        QVERIFY2(lab::ServerTuning::tune(*server, {QStringLiteral("max-downloads=8")}, &error),
                 qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(loader.done() > 50, 10000);
        QCOMPARE(server->stats().queued, 0u);
        ::close(staller);
    }

    // The pools of the blocking and poller models grow and shrink too, and keep serving.
    void poolsGrowAndShrink_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("handoff");
        QTest::newRow("blocking") << QStringLiteral("blocking+copy") << int(server::Handoff::Mutex);
        QTest::newRow("poller") << QStringLiteral("poller+sendfile") << int(server::Handoff::Mutex);
        QTest::newRow("poller lockfree")
            << QStringLiteral("poller+sendfile") << int(server::Handoff::LockFree);
    }
    void poolsGrowAndShrink()
    {
        QFETCH(QString, mode);
        QFETCH(int, handoff);
        auto o = options(qPrintable(mode), 2);
        o.handoff = server::Handoff(handoff);
        auto server = start(o);
        QVERIFY(server);
        const int idle = threads();
        QString error;
        for (const auto &[to, delta] : {std::pair{6, 4}, {1, -1}, {3, 1}}) {
            QVERIFY2(
                lab::ServerTuning::tune(*server, {QStringLiteral("threads=%1").arg(to)}, &error),
                qPrintable(error));
            QTRY_COMPARE_WITH_TIMEOUT(threads(), idle + delta, 5000);
            Loader loader(server->port());
            QTRY_VERIFY_WITH_TIMEOUT(loader.done() >= 20, 5000);
        }
        server->stop();
        QCOMPARE(server->stats().requests >= 60, true);
    }

    // What cannot change live is refused with the reason, and nothing changes.
    void refusals_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("epoll threads")
            << QStringLiteral("epoll+sendfile") << QStringLiteral("threads=4")
            << QStringLiteral("each of its threads owns");
        QTest::newRow("cache on") << QStringLiteral("poller+copy")
                                  << QStringLiteral("open-file-cache=100")
                                  << QStringLiteral("turns on or off only as the server starts");
        QTest::newRow("fixed option")
            << QStringLiteral("epoll+sendfile") << QStringLiteral("backlog=10")
            << QStringLiteral("backlog cannot change while the server "
                              "runs: the listen queue");
        QTest::newRow("unknown") << QStringLiteral("epoll+sendfile") << QStringLiteral("banana=1")
                                 << QStringLiteral("--banana is not a server option");
        QTest::newRow("bad value")
            << QStringLiteral("multiplex+copy") << QStringLiteral("threads=0")
            << QStringLiteral("--threads wants a whole number");
        QTest::newRow("not name=value")
            << QStringLiteral("multiplex+copy") << QStringLiteral("threads")
            << QStringLiteral("is not name=value");
    }
    void refusals()
    {
        QFETCH(QString, mode);
        QFETCH(QString, change);
        QFETCH(QString, reason);
        auto server = start(options(qPrintable(mode), 2));
        QVERIFY(server);
        const auto before = lab::ServerTuning::current(server->options());
        const int count = threads();
        QString error;
        QVERIFY(!lab::ServerTuning::tune(*server, {QStringLiteral("chunk=64K"), change}, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        QCOMPARE(lab::ServerTuning::current(server->options()), before); // not even the chunk
        QCOMPARE(threads(), count);
        RawHttpConnection c(server->port());
        QVERIFY(c.send("GET /64K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head;
        QCOMPARE(c.readResponse(&head), 200);
    }

    // Every option a connection reads as it goes takes effect on the threads' next wake-up:
    // a keep-alive timeout lowered live closes an idle connection at the new time.
    void connectionOptionsLive()
    {
        auto server = start(options("epoll+sendfile", 1));
        QVERIFY(server);
        QString error;
        QVERIFY2(lab::ServerTuning::tune(*server,
                                         {QStringLiteral("keepalive-timeout=300ms"),
                                          QStringLiteral("chunk=64K"),
                                          QStringLiteral("open-file-valid=2s")},
                                         &error),
                 qPrintable(error));
        const QStringList now = lab::ServerTuning::current(server->options());
        QVERIFY2(now.contains(QStringLiteral("keepalive-timeout=300ms")) &&
                     now.contains(QStringLiteral("chunk=64K")),
                 qPrintable(now.join(u' ')));
        RawHttpConnection c(server->port());
        QVERIFY(c.send("GET /64K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
        QByteArray head;
        QCOMPARE(c.readResponse(&head), 200);
        QElapsedTimer idle;
        idle.start();
        QVERIFY(c.closedByPeer()); // within RawHttpConnection's 5 s, not the 5 s default
        QVERIFY2(idle.elapsed() < 2000, qPrintable(QString::number(idle.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestLiveTuning)
#include "tst_livetuning.moc"
