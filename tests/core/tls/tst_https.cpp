// SPDX-License-Identifier: Apache-2.0
// https end to end: the built-in servers over OpenSSL against the client, every handshake policy,
// the certificate check, and the cases a TLS port must survive (plaintext, a stalled handshake,
// kernel TLS asked for where there is none).
#include "../client/servedfiles.h"
#include "client/closedclient.h"
#include "server/eventmodel.h"
#include "server/server.h"
#include "server/serveroptions.h"
#include "tls/selfsignedpair.h"
#include "tls/tlsservercontext.h"

#include "rawhttpconnection.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace servelab;
using client::ErrorKind;
using client::HandshakePolicy;

namespace {

const QList<quint64> sizes = {1, 1000, 70'000, 1'048'576};

QString fileOf(quint64 size)
{
    return u'/' + lab::DocRootGenerator::fileNameFor(size);
}

} // namespace

class TestHttps : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_root;
    std::string m_certificate;
    std::string m_key;

    std::unique_ptr<server::Server> serve(server::ServerOptions options, QString *error)
    {
        if (options.tls.empty())
            options.tls = "self-signed";
        return testing::serveFiles(m_root, sizes, options, error);
    }

    client::ClientOptions clientFor(const server::Server &s, quint64 size)
    {
        client::ClientOptions o;
        o.port = s.port();
        o.path = fileOf(size).toStdString();
        o.verifyRoot = m_root.toStdString();
        o.tls.enabled = true;
        o.tls.caFile = m_certificate;
        return o;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("root"));
        // The self-signed pair is made here, once, as the servers will ask for it.
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toUtf8());
        std::string error;
        QVERIFY2(tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                             tls::SelfSignedPair::Key::EcdsaP256, &m_certificate,
                                             &m_key, &error),
                 error.c_str());
        QVERIFY(QString::fromStdString(m_certificate).startsWith(m_dir.path()));
        QCOMPARE(QFileInfo(QString::fromStdString(m_key)).permissions() &
                     (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());
    }

    // Every model that takes https, with each userspace transfer, serves the same bytes as it
    // does in plain text (the client compares every body with the file), and counts one
    // handshake per connection.
    void everyModelServesTheFilesOverTls_data()
    {
        QTest::addColumn<QString>("mode");
        for (const auto &model : server::eventModels()) {
            if (model.noTls || !model.create)
                continue;
            for (const char *transfer : {"copy", "mmap"})
                QTest::newRow(qPrintable(QStringLiteral("%1+%2").arg(QLatin1String(model.name),
                                                                     QLatin1String(transfer))))
                    << QStringLiteral("%1+%2").arg(QLatin1String(model.name),
                                                   QLatin1String(transfer));
        }
    }
    void everyModelServesTheFilesOverTls()
    {
        QFETCH(QString, mode);
        const auto *model = server::findEventModel(mode.section(u'+', 0, 0).toStdString());
        if (model->whyNotHere && !model->whyNotHere().empty())
            QSKIP(model->whyNotHere().c_str());
        server::ServerOptions options;
        options.mode = mode.toStdString();
        options.threads = 4; // more than the client's connections: blocking holds one per thread
        QString error;
        auto s = serve(options, &error);
        QVERIFY2(s, qPrintable(error));
        for (quint64 size : sizes) {
            client::ClientOptions o = clientFor(*s, size);
            o.requests = 12;
            o.concurrency = 3;
            o.keepAlive = true;
            const auto r = client::ClosedClient(o).run();
            QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
            QCOMPARE(r.ok, 12u);
            QCOMPARE(r.bodyBytes, 12 * size);
            QCOMPARE(r.tlsHandshakes, r.connects);
        }
        const auto stats = s->stats();
        QCOMPARE(stats.tlsFailed, 0u);
        QCOMPARE(stats.tlsHandshakes, stats.connectionsAccepted);
    }

    // keepalive: a handshake per connection; new: one per request, none resumed; resume: one
    // per request, all but each slot's first resumed, as the server counts them too.
    void handshakePolicies_data()
    {
        QTest::addColumn<QString>("versions");
        QTest::addColumn<int>("policy");
        for (const char *v : {"1.2", "1.3"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 keepalive").arg(QLatin1String(v))))
                << QString::fromLatin1(v) << int(HandshakePolicy::KeepAlive);
            QTest::newRow(qPrintable(QStringLiteral("%1 new").arg(QLatin1String(v))))
                << QString::fromLatin1(v) << int(HandshakePolicy::New);
            QTest::newRow(qPrintable(QStringLiteral("%1 resume").arg(QLatin1String(v))))
                << QString::fromLatin1(v) << int(HandshakePolicy::Resume);
        }
    }
    void handshakePolicies()
    {
        QFETCH(QString, versions);
        QFETCH(int, policy);
        server::ServerOptions options;
        options.mode = "epoll+copy";
        QString error;
        auto s = serve(options, &error);
        QVERIFY2(s, qPrintable(error));
        client::ClientOptions o = clientFor(*s, 1000);
        o.requests = 40;
        o.concurrency = 2;
        o.tls.policy = HandshakePolicy(policy);
        o.tls.protocols.versions = versions.toStdString();
        o.keepAlive = o.tls.policy == HandshakePolicy::KeepAlive;
        const auto r = client::ClosedClient(o).run();
        QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
        QCOMPARE(r.ok, 40u);
        QCOMPARE(r.tlsTimes.count(), r.tlsHandshakes);
        switch (o.tls.policy) {
        case HandshakePolicy::KeepAlive:
            QCOMPARE(r.tlsHandshakes, 2u);
            QCOMPARE(r.tlsResumed, 0u);
            break;
        case HandshakePolicy::New:
            QCOMPARE(r.tlsHandshakes, 40u);
            QCOMPARE(r.tlsResumed, 0u);
            break;
        case HandshakePolicy::Resume:
            QCOMPARE(r.tlsHandshakes, 40u);
            QVERIFY2(r.tlsResumed >= 38u, qPrintable(QString::number(r.tlsResumed)));
            break;
        }
        // The proof of resumption is the server's own count.
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().tlsHandshakes, r.tlsHandshakes, 5000);
        QCOMPARE(s->stats().tlsResumed, r.tlsResumed);
    }

    // Without the CA, the certificate is refused, with OpenSSL's reason; --insecure goes on; a
    // name the certificate does not carry is refused too.
    void certificateCheck()
    {
        server::ServerOptions options;
        options.mode = "epoll+copy";
        QString error;
        auto s = serve(options, &error);
        QVERIFY2(s, qPrintable(error));
        client::ClientOptions o = clientFor(*s, 1000);
        o.requests = 3;
        o.tls.policy = HandshakePolicy::New;
        o.tls.caFile.clear(); // the system's CAs: ours is not among them
        auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::TlsCertificate), 3u);
        QVERIFY2(QString::fromStdString(r.tlsProblem).contains(QStringLiteral("self-signed")),
                 r.tlsProblem.c_str());

        o.tls.insecure = true;
        r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 3u);

        o.tls.insecure = false;
        o.tls.caFile = m_certificate;
        o.tls.serverName = "example.com";
        r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::TlsCertificate), 3u);
        QVERIFY2(QString::fromStdString(r.tlsProblem).contains(QStringLiteral("mismatch")),
                 r.tlsProblem.c_str());

        o.tls.serverName = "localhost";
        r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 3u);

        o.tls.caFile = "/nonexistent/ca.pem";
        r = client::ClosedClient(o).run();
        QVERIFY(
            QString::fromStdString(r.fatalError).contains(QStringLiteral("/nonexistent/ca.pem")));
    }

    // A client that offers what the server does not take fails its handshake, with the reason.
    void protocolsMustMeet()
    {
        server::ServerOptions options;
        options.mode = "epoll+copy";
        options.tlsVersions = "1.2";
        options.tlsCiphers = "ECDHE-ECDSA-AES128-GCM-SHA256";
        QString error;
        auto s = serve(options, &error);
        QVERIFY2(s, qPrintable(error));
        client::ClientOptions o = clientFor(*s, 1000);
        o.requests = 2;
        o.tls.protocols.versions = "1.3";
        auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::TlsHandshake), 2u);
        QVERIFY(!r.tlsProblem.empty());
        o.tls.protocols.versions = "1.2,1.3";
        r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 2u);
        QCOMPARE(s->stats().tlsFailed, 2u);
    }

    // Plaintext sent to the TLS port gets a clean close (no alert, no reset), and the stalled
    // handshake of a slowloris is cut at the header deadline; no connection is left open.
    void plaintextAndStalledHandshakesAreClosed()
    {
        server::ServerOptions options;
        options.mode = "epoll+copy";
        options.headerTimeoutMs = 300;
        QString error;
        auto s = serve(options, &error);
        QVERIFY2(s, qPrintable(error));
        const int baseline = RawHttpConnection::countOpenSockets(); // the listener's and loop's
        client::ClientOptions o = clientFor(*s, 1000);
        o.tls.enabled = false;
        o.requests = 2;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::EofBeforeResponse), 2u);
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().tlsFailed, 2u, 5000);

        // A handshake record header, and then nothing.
        const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(s->port());
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        const char start[] = {22, 3, 1};
        QCOMPARE(::send(fd, start, sizeof start, 0), ssize_t(sizeof start));
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().tlsFailed, 3u, 5000);
        char byte = 0;
        QCOMPARE(::recv(fd, &byte, 1, 0), ssize_t(0)); // closed without a word
        ::close(fd);
        QTRY_COMPARE_WITH_TIMEOUT(s->stats().connectionsOpen(), 0u, 5000);
        QCOMPARE(s->stats().tlsHandshakes, 0u);
        QTRY_COMPARE_WITH_TIMEOUT(RawHttpConnection::countOpenSockets(), baseline, 5000);
    }

    // sendfile over https is kernel TLS or nothing: where the kernel has no tls module the server
    // refuses to start and says why; where it has one, every connection's sending side is the
    // kernel's.
    void sendfileNeedsKernelTls()
    {
        server::ServerOptions options;
        options.mode = "epoll+sendfile";
        QString error;
        const std::string missing = tls::TlsServerContext::kernelTlsMissing();
        auto s = serve(options, &error);
        if (!missing.empty()) {
            QVERIFY(!s);
            QVERIFY2(error.contains(QStringLiteral("kernel TLS")) &&
                         error.contains(QStringLiteral("tcp_available_ulp")),
                     qPrintable(error));
            return;
        }
        QVERIFY2(s, qPrintable(error));
        client::ClientOptions o = clientFor(*s, 1'048'576);
        o.requests = 4;
        o.keepAlive = true;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 4u);
        QCOMPARE(s->stats().tlsKernel, r.tlsHandshakes);
        QCOMPARE(s->stats().tlsKernelMissed, 0u);
    }

    void refusals()
    {
        server::ServerOptions options;
        options.mode = "qt+copy";
        QString error;
        QVERIFY(!serve(options, &error));
        QVERIFY2(error.contains(QStringLiteral("plain HTTP only")), qPrintable(error));
        options.mode = "epoll+copy";
        options.tls = "/nonexistent/cert.pem,/nonexistent/key.pem";
        QVERIFY(!serve(options, &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent/cert.pem")), qPrintable(error));
        options.tls = "self-signed";
        options.tlsCiphers = "NO-SUCH-CIPHER";
        QVERIFY(!serve(options, &error));
        QVERIFY2(error.contains(QStringLiteral("NO-SUCH-CIPHER")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestHttps)
#include "tst_https.moc"
