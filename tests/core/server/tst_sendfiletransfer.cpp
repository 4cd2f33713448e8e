// SPDX-License-Identifier: Apache-2.0
#include "loopback.h"
#include "server/outgoingresponse.h"
#include "server/sendfiletransfer.h"
#include "server/serveroptions.h"

#include <QTemporaryFile>
#include <QTest>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace servelab;

namespace {

// A connected loopback TCP pair, both ends non-blocking.
struct TcpPair
{
    int server = -1;
    int client = -1;

    bool open()
    {
        const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        const bool ok =
            bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
            listen(listener, 1) == 0 &&
            getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length) == 0;
        client = ok ? connectLoopback(ntohs(address.sin_port)) : -1;
        server =
            client >= 0 ? accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK) : -1;
        ::close(listener);
        fcntl(client, F_SETFL, O_NONBLOCK);
        return server >= 0;
    }
    ~TcpPair()
    {
        ::close(server);
        ::close(client);
    }
    bool corked() const
    {
        int value = -1;
        socklen_t length = sizeof value;
        getsockopt(server, IPPROTO_TCP, TCP_CORK, &value, &length);
        return value != 0;
    }
    // Reads what has arrived; the bytes read.
    std::uint64_t drain() const
    {
        static char buffer[1 << 16];
        std::uint64_t total = 0;
        for (ssize_t n; (n = recv(client, buffer, sizeof buffer, 0)) > 0;)
            total += std::uint64_t(n);
        return total;
    }
};

} // namespace

// TCP_CORK (nginx's tcp_nopush) holds from the head to the body's last byte, and no longer.
class TestSendfileTransfer : public QObject
{
    Q_OBJECT
    QTemporaryFile m_file;
    static constexpr std::uint64_t size = 8 << 20; // more than a loopback socket takes at once

    void respond(server::OutgoingResponse &r)
    {
        r.clear();
        r.head = "HTTP/1.1 200 OK\r\nContent-Length: 8388608\r\n\r\n";
        r.file.fd = ::open(qPrintable(m_file.fileName()), O_RDONLY | O_CLOEXEC);
        r.file.status = 200;
        r.file.size = size;
        r.remaining = size;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_file.open());
        QVERIFY(m_file.resize(qint64(size)));
    }

    void corkedForTheWholeBody_data()
    {
        QTest::addColumn<bool>("noPush");
        QTest::newRow("nopush on") << true;
        QTest::newRow("nopush off") << false;
    }
    void corkedForTheWholeBody()
    {
        QFETCH(bool, noPush);
        server::ServerOptions options;
        options.tcpNoPush = noPush;
        options.sendfileChunk = std::size_t(1) << 30; // on until the socket is full
        server::SendfileTransfer transfer(options);
        TcpPair pair;
        QVERIFY(pair.open());
        server::OutgoingResponse r;
        respond(r);
        const std::uint64_t total = r.head.size() + size;
        std::uint64_t sent = 0;
        std::uint64_t received = 0;
        auto status = transfer.write(pair.server, r, &sent);
        // The peer has not read yet: the socket filled up part-way, and the cork holds.
        QCOMPARE(status, server::WriteStatus::Again);
        QVERIFY(r.remaining > 0);
        QCOMPARE(pair.corked(), noPush);
        for (int round = 0; status != server::WriteStatus::Done && round < 100000; ++round) {
            received += pair.drain();
            status = transfer.write(pair.server, r, &sent);
            QVERIFY(status == server::WriteStatus::Again || status == server::WriteStatus::Yield ||
                    status == server::WriteStatus::Done);
        }
        QCOMPARE(status, server::WriteStatus::Done);
        QCOMPARE(sent, total);
        QVERIFY(!pair.corked()); // the last partial segment is let go at once
        QVERIFY(!r.corked);
        QTRY_COMPARE_WITH_TIMEOUT(received += pair.drain(), total, 5000);
        // A response with no body (HEAD) is not corked at all.
        respond(r);
        r.remaining = 0;
        QCOMPARE(transfer.write(pair.server, r, &sent), server::WriteStatus::Done);
        QVERIFY(!pair.corked());
    }

    // A small body with the open-file cache on: head and body in one sendmsg from the file's
    // kept mapping, none without the cache (pread); the same bytes either way, and a file
    // truncated since is mapped anew at its new size.
    void smallBodiesComeFromTheKeptMapping_data()
    {
        QTest::addColumn<int>("cacheEntries");
        QTest::newRow("open-file cache") << 16;
        QTest::newRow("no cache") << 0;
    }
    void smallBodiesComeFromTheKeptMapping()
    {
        QFETCH(int, cacheEntries);
        QTemporaryFile file;
        QVERIFY(file.open());
        server::ServerOptions options;
        options.openFileCacheEntries = cacheEntries;
        server::SendfileTransfer transfer(options);
        TcpPair pair;
        QVERIFY(pair.open());
        for (const auto &[length, fill] : {std::pair{4096, 'a'}, std::pair{2048, 'b'}}) {
            const QByteArray body(length, fill);
            QVERIFY(file.resize(0) && file.seek(0) && file.write(body) == body.size() &&
                    file.flush());
            struct stat st
            {};
            QVERIFY(fstat(int(file.handle()), &st) == 0);
            server::OutgoingResponse r;
            r.head = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(length) + "\r\n\r\n";
            r.file.fd = ::open(qPrintable(file.fileName()), O_RDONLY | O_CLOEXEC);
            r.file.status = 200;
            r.file.size = body.size();
            r.file.device = st.st_dev;
            r.file.inode = st.st_ino;
            r.file.changedNs = std::int64_t(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
            r.remaining = r.file.size;
            std::uint64_t sent = 0;
            QCOMPARE(transfer.write(pair.server, r, &sent), server::WriteStatus::Done);
            QCOMPARE(sent, r.head.size() + body.size());
            QCOMPARE(r.mapping != nullptr, cacheEntries > 0);
            QByteArray got;
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    char buffer[8192];
                    for (ssize_t n; (n = recv(pair.client, buffer, sizeof buffer, 0)) > 0;)
                        got.append(buffer, n);
                    return got.size() >= qsizetype(sent);
                }(),
                5000);
            QCOMPARE(got, QByteArray::fromStdString(r.head) + body);
        }
    }
};

QTEST_GUILESS_MAIN(TestSendfileTransfer)
#include "tst_sendfiletransfer.moc"
