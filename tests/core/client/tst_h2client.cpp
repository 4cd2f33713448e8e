// SPDX-License-Identifier: Apache-2.0
// The HTTP/2 client (ClientOptions::http2) in every load model, against the built-in server's
// h2: byte-exact bodies, connections x streams, what a GOAWAY or the client's own close does
// to the streams in flight, and the error a server without HTTP/2 gets.
#include "client/closedclient.h"
#include "client/durationclient.h"
#include "client/rampclient.h"
#include "client/rateclient.h"
#include "servedfiles.h"
#include "tls/selfsignedpair.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;
using client::ErrorKind;

class TestH2Client : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;
    std::string m_certificate;

    std::unique_ptr<server::Server> serve(bool http2, int maxRequests = 0, bool tls = false)
    {
        server::ServerOptions options;
        options.mode = "epoll+copy";
        options.http2 = http2;
        options.maxRequestsPerConnection = maxRequests;
        if (tls)
            options.tls = "self-signed";
        QString error;
        auto s = testing::serveFiles(m_root, {4096, 1 << 20}, options, &error);
        if (!s)
            qWarning("%s", qPrintable(error));
        return s;
    }

    client::ClientOptions h2(const server::Server &s, const char *path, int connections,
                             int streams) const
    {
        client::ClientOptions o;
        o.port = s.port();
        o.path = path;
        o.http2 = true;
        o.keepAlive = true;
        o.concurrency = connections;
        o.streams = streams;
        o.verifyRoot = m_root.toStdString();
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.filePath(QStringLiteral("root"));
        qputenv("XDG_CACHE_HOME", m_dir.filePath(QStringLiteral("cache")).toUtf8());
        std::string key, error;
        QVERIFY2(tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                             tls::SelfSignedPair::Key::EcdsaP256, &m_certificate,
                                             &key, &error),
                 error.c_str());
    }

    // ab's model over h2c: every request answered byte-exact, c connections and no more, each
    // request a stream the server counted.
    void closedModelSharesConnections()
    {
        const auto s = serve(true);
        QVERIFY(s);
        const auto before = s->stats();
        auto o = h2(*s, "/4K.bin", 2, 5);
        o.requests = 300;
        const auto r = client::ClosedClient(o).run();
        QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
        QCOMPARE(r.ok, 300u);
        QCOMPARE(r.failed(), 0u);
        QCOMPARE(r.bodyBytes, 300u * 4096);
        QVERIFY(r.bytesRead > r.bodyBytes); // frame headers and HEADERS count as read
        QCOMPARE(r.connects, 2u);
        QCOMPARE(r.latency.count(), 300u);
        QCOMPARE(s->stats().h2Streams - before.h2Streams, 300u);
    }

    // wrk's, wrk2's and faban's models over h2c, a 1 MiB body split into many DATA frames.
    void everyModelSpeaksH2c()
    {
        const auto s = serve(true);
        QVERIFY(s);
        {
            client::DurationClient d(h2(*s, "/1M.bin", 2, 4), 2, 300);
            const auto r = d.run();
            QVERIFY2(r.total.fatalError.empty(), r.total.fatalError.c_str());
            QVERIFY(r.total.ok > 8);
            QCOMPARE(r.total.failed(), 0u);
            QCOMPARE(r.total.connects, 2u);
            QCOMPARE(r.total.bodyBytes, r.total.ok << 20);
        }
        {
            client::RateClient rate(h2(*s, "/4K.bin", 2, 2), 1, 500, 1000);
            const auto r = rate.run();
            QVERIFY2(r.total.fatalError.empty(), r.total.fatalError.c_str());
            QCOMPARE(r.total.failed(), 0u);
            // 500 slots in 0.5 s, the last ones perhaps still in flight at the end.
            QVERIFY2(r.total.ok >= 490 && r.total.ok <= 500,
                     qPrintable(QString::number(r.total.ok)));
            QCOMPARE(r.total.connects, 2u);
        }
        {
            client::ThinkTime think;
            std::string why;
            QVERIFY(client::ThinkTime::parse("fixed:2ms", &think, &why));
            client::RampClient ramp(h2(*s, "/4K.bin", 2, 3), 1, {0, 400, 0}, think);
            const auto r = ramp.run();
            QVERIFY2(r.steady.fatalError.empty(), r.steady.fatalError.c_str());
            QCOMPARE(r.users, 6); // a user per stream
            QVERIFY(r.steady.ok > 100);
            QCOMPARE(r.steady.failed(), 0u);
        }
    }

    // A server that ends each connection after 7 requests (GOAWAY): the streams it did not take
    // go again on a new connection, none fails.
    void goawayMovesStreamsToANewConnection()
    {
        const auto s = serve(true, 7);
        QVERIFY(s);
        auto o = h2(*s, "/4K.bin", 2, 5);
        o.requests = 200;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 200u);
        QCOMPARE(r.failed(), 0u);
        QVERIFY2(r.connects >= 200 / 7 && r.connects <= 200 / 7 + 4,
                 qPrintable(QString::number(r.connects)));
    }

    // The client's own close (close-after): the connection ends once its streams are done,
    // and the next requests go on a new one.
    void closeAfterWaitsForTheStreamsInFlight()
    {
        const auto s = serve(true);
        QVERIFY(s);
        auto o = h2(*s, "/4K.bin", 1, 4);
        o.requests = 200;
        o.requestsPerConnection = 20;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 200u);
        QCOMPARE(r.failed(), 0u);
        QVERIFY2(r.connects >= 200 / 24 && r.connects <= 200 / 20 + 1,
                 qPrintable(QString::number(r.connects)));
    }

    // h2 by ALPN over https, and the error for servers that do not speak HTTP/2: an HTTP/1.1
    // answer to the h2c preface, an ALPN that did not choose h2.
    void alpnAndServersWithoutHttp2()
    {
        const auto tlsH2 = serve(true, 0, true);
        const auto tlsH1 = serve(false, 0, true);
        const auto plainH1 = serve(false);
        QVERIFY(tlsH2 && tlsH1 && plainH1);
        auto o = h2(*tlsH2, "/1M.bin", 2, 3);
        o.tls.enabled = true;
        o.tls.caFile = m_certificate;
        o.requests = 30;
        auto r = client::ClosedClient(o).run();
        QVERIFY2(r.fatalError.empty(), r.fatalError.c_str());
        QCOMPARE(r.ok, 30u);
        QCOMPARE(r.tlsHandshakes, 2u);

        o.port = tlsH1->port();
        r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 0u);
        QCOMPARE(r.errorCount(ErrorKind::H2Unsupported), 30u);

        o = h2(*plainH1, "/4K.bin", 2, 3);
        o.requests = 30;
        r = client::ClosedClient(o).run();
        QCOMPARE(r.ok, 0u);
        QCOMPARE(r.errorCount(ErrorKind::H2Unsupported), 30u);
    }

    // Bodies are compared as over HTTP/1.1: other bytes of the same length are wrong_content.
    void otherBytesAreWrongContent()
    {
        const auto s = serve(true);
        QVERIFY(s);
        QTemporaryDir other;
        QFile f(other.filePath(QStringLiteral("4K.bin")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto o = h2(*s, "/4K.bin", 1, 2);
        o.verifyRoot = other.path().toStdString();
        o.requests = 10;
        const auto r = client::ClosedClient(o).run();
        QCOMPARE(r.errorCount(ErrorKind::WrongContent), 10u);
    }
};

QTEST_GUILESS_MAIN(TestH2Client)
#include "tst_h2client.moc"
