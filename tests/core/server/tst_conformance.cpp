// SPDX-License-Identifier: Apache-2.0
// The conformance table (tests/conformance/requests.table) against every built-in mode: each
// row's bytes on a fresh connection, the status of the response, and whether the connection
// stays usable or is closed; the descriptors back to where they were after each mode. Then the
// same over https.
#include "conformancetable.h"
#include "rawhttpconnection.h"

#include "lab/spec/docrootgenerator.h"
#include "server/eventmodel.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"
#include "tls/tlsservercontext.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace servelab;

class TestConformance : public QObject
{
    Q_OBJECT
public:
    TestConformance(std::string mode, const QString &root, const QList<conformance::Case> &cases,
                    bool tls)
        : m_mode(std::move(mode)), m_tls(tls), m_root(root), m_cases(cases)
    {}

private:
    std::string m_mode;
    bool m_tls; // every row over https (the server's self-signed pair)
    QString m_root;
    QList<conformance::Case> m_cases;
    std::unique_ptr<server::Server> m_server;
    int m_fdsBefore = 0;

private Q_SLOTS:
    void initTestCase()
    {
        m_fdsBefore = RawHttpConnection::countOpenFds();
        server::ServerOptions options;
        options.root = m_root.toStdString();
        options.mode = m_mode;
        options.threads = 2;
        if (m_tls)
            options.tls = "self-signed";
        std::string error;
        m_server = server::createServer(options, &error);
        QVERIFY2(m_server && m_server->start(&error), error.c_str());
    }

    void request_data()
    {
        QTest::addColumn<int>("row");
        for (int i = 0; i < m_cases.size(); ++i)
            QTest::addRow("%s", qPrintable(m_cases[i].name)) << i;
    }
    void request()
    {
        QFETCH(int, row);
        const conformance::Case &c = m_cases[row];
        RawHttpConnection probe(m_server->port(), m_tls);
        QVERIFY(probe.connected());
        QVERIFY(probe.send(c.bytes));
        QByteArray head;
        const int status = probe.readResponse(&head, nullptr, c.bytes.startsWith("HEAD "));
        QVERIFY2(status == c.status,
                 qPrintable(QStringLiteral("%1: expected %2, got %3: %4")
                                .arg(c.name)
                                .arg(c.status)
                                .arg(status)
                                .arg(QString::fromLatin1(head.left(200)).trimmed())));
        if (c.staysOpen) {
            QVERIFY2(!head.contains("Connection: close"), head.constData());
            QVERIFY(probe.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
            const int next = probe.readResponse(&head, nullptr, false);
            // A pipelined second request in the row is answered first.
            QVERIFY2(next == 200, qPrintable(QStringLiteral("%1: the connection did not stay "
                                                            "usable (then %2)")
                                                 .arg(c.name)
                                                 .arg(next)));
        } else {
            QVERIFY2(probe.closedByPeer(),
                     qPrintable(QStringLiteral("%1: the connection was not closed").arg(c.name)));
        }
    }

    void cleanupTestCase()
    {
        m_server->stop();
        m_server.reset();
        QCOMPARE(RawHttpConnection::countOpenFds(), m_fdsBefore);
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QString error;
    const QList<conformance::Case> cases =
        conformance::load(QStringLiteral(SERVELAB_CONFORMANCE_TABLE), &error);
    if (cases.isEmpty()) {
        qCritical("%s", qPrintable(error));
        return 1;
    }
    QTemporaryDir root;
    if (!conformance::makeRoot(root.path(), &error)) {
        qCritical("%s", qPrintable(error));
        return 1;
    }
    qInfo("%lld cases", qlonglong(cases.size()));
    int failures = 0;
    const QStringList only =
        qEnvironmentVariable("SERVELAB_TEST_MODES").split(QLatin1Char(','), Qt::SkipEmptyParts);
    // Then over https, every mode that serves it here: the TLS layer must change no answer.
    // sendfile over https is kernel TLS, which this kernel may not have (tst_https covers
    // that refusal); qt serves plain HTTP only.
    const bool kernelTls = tls::TlsServerContext::kernelTlsMissing().empty();
    for (const bool tls : {false, true}) {
        for (const auto &mode : server::availableModes()) {
            if (!only.isEmpty() && !only.contains(QString::fromStdString(mode.name())))
                continue;
            if (tls && (server::findEventModel(mode.model)->noTls ||
                        (mode.transfer == "sendfile" && !kernelTls)))
                continue;
            qInfo("=== mode %s%s", mode.name().c_str(), tls ? " over https" : "");
            TestConformance test(mode.name(), root.path(), cases, tls);
            failures += QTest::qExec(&test, argc, argv);
        }
    }
    return failures;
}

#include "tst_conformance.moc"
