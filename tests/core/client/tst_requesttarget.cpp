// SPDX-License-Identifier: Apache-2.0
#include "client/clientoptions.h"
#include "client/requesttarget.h"

#include <QTest>

using namespace servelab;

// The bytes a request is made of: wrk's (Host alone) unless the closed model asks for ab's,
// and the Connection line only where the version's default is not what is wanted.
class TestRequestTarget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void headIsWhatTheToolSends_data()
    {
        QTest::addColumn<bool>("abHeaders");
        QTest::addColumn<bool>("http10");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<QByteArray>("head");
        QTest::newRow("as wrk") << false << false << true
                                << QByteArray("GET /4K.bin HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
        QTest::newRow("1.1, closing") << false << false << false
                                      << QByteArray("GET /4K.bin HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                                                    "Connection: close\r\n\r\n");
        QTest::newRow("as ab") << true << true << false
                               << QByteArray("GET /4K.bin HTTP/1.0\r\nHost: 127.0.0.1:8080\r\n"
                                             "User-Agent: ServeLab\r\nAccept: */*\r\n\r\n");
        QTest::newRow("as ab -k") << true << true << true
                                  << QByteArray("GET /4K.bin HTTP/1.0\r\nHost: 127.0.0.1:8080\r\n"
                                                "User-Agent: ServeLab\r\nAccept: */*\r\n"
                                                "Connection: keep-alive\r\n\r\n");
    }
    void headIsWhatTheToolSends()
    {
        QFETCH(bool, abHeaders);
        QFETCH(bool, http10);
        QFETCH(bool, keepAlive);
        QFETCH(QByteArray, head);
        client::ClientOptions options;
        options.port = 8080;
        options.path = "/4K.bin";
        options.abHeaders = abHeaders;
        options.http10 = http10;
        options.keepAlive = keepAlive;
        client::RequestTarget target;
        std::string error;
        QVERIFY2(target.prepare(options, &error), error.c_str());
        QCOMPARE(QByteArray::fromStdString(target.request.head), head);
    }

    // Port 80 is implied, and an IPv6 address is bracketed (RFC 9110 §7.2).
    void hostFieldIsAnAuthority()
    {
        client::ClientOptions options;
        options.host = "::1";
        options.port = 80;
        client::RequestTarget target;
        std::string error;
        QVERIFY2(target.prepare(options, &error), error.c_str());
        QCOMPARE(QByteArray::fromStdString(target.request.head),
                 QByteArray("GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n"));
    }
};

QTEST_GUILESS_MAIN(TestRequestTarget)
#include "tst_requesttarget.moc"
