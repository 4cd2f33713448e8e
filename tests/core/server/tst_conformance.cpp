// The conformance table (tests/conformance/requests.table) against every built-in mode: each
// row's bytes on a fresh connection, the status of the response, and whether the connection
// stays usable or is closed; the descriptors back to where they were after each mode.
#include "conformancetable.h"

#include "lab/docrootgenerator.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

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

namespace {

int countOpenFds()
{
    return int(QDir(QStringLiteral("/proc/self/fd"))
                   .entryList(QDir::NoDotAndDotDot | QDir::AllEntries)
                   .size());
}

// A plain blocking client with a deadline: it must not trust the code it checks.
class Probe
{
public:
    explicit Probe(quint16 port)
    {
        m_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_connected = ::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
    }
    ~Probe() { ::close(m_fd); }
    Probe(const Probe &) = delete;
    Probe &operator=(const Probe &) = delete;
    bool connected() const { return m_connected; }
    bool send(const QByteArray &bytes)
    {
        return ::send(m_fd, bytes.data(), size_t(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    }
    // One response: its status (0 if none came within the deadline or the peer closed first),
    // the body skipped by its Content-Length unless `noBody` (HEAD, 304).
    int readStatus(bool noBody, QByteArray *head)
    {
        while (!m_buffer.contains("\r\n\r\n"))
            if (!fill())
                return 0;
        const qsizetype end = m_buffer.indexOf("\r\n\r\n") + 4;
        *head = m_buffer.left(end);
        m_buffer.remove(0, end);
        if (!head->startsWith("HTTP/1.1 ") || head->size() < 12)
            return 0;
        const int status = head->mid(9, 3).toInt();
        const qsizetype at = head->toLower().indexOf("\r\ncontent-length: ");
        const qint64 length =
            at < 0 ? 0 : head->mid(at + 18, head->indexOf('\r', at + 2) - at - 18).toLongLong();
        if (!noBody && status != 304) {
            while (m_buffer.size() < length)
                if (!fill())
                    return 0;
            m_buffer.remove(0, length);
        }
        return status;
    }
    // True once the peer has closed and nothing more was sent.
    bool closedByPeer()
    {
        if (!m_buffer.isEmpty())
            return false;
        char c;
        return waitReadable() && ::recv(m_fd, &c, 1, 0) == 0;
    }

private:
    bool waitReadable()
    {
        pollfd p{m_fd, POLLIN, 0};
        return ::poll(&p, 1, 5000) == 1;
    }
    bool fill()
    {
        if (!waitReadable())
            return false;
        char chunk[65536];
        const auto n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return false;
        m_buffer.append(chunk, n);
        return true;
    }
    int m_fd = -1;
    bool m_connected = false;
    QByteArray m_buffer;
};

} // namespace

class TestConformance : public QObject
{
    Q_OBJECT
public:
    TestConformance(std::string mode, const QString &root, const QList<conformance::Case> &cases)
        : m_mode(std::move(mode)), m_root(root), m_cases(cases)
    {}

private:
    std::string m_mode;
    QString m_root;
    QList<conformance::Case> m_cases;
    std::unique_ptr<server::Server> m_server;
    int m_fdsBefore = 0;

private Q_SLOTS:
    void initTestCase()
    {
        m_fdsBefore = countOpenFds();
        server::ServerOptions options;
        options.root = m_root.toStdString();
        options.mode = m_mode;
        options.threads = 2;
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
        Probe probe(m_server->port());
        QVERIFY(probe.connected());
        QVERIFY(probe.send(c.bytes));
        QByteArray head;
        const int status = probe.readStatus(c.bytes.startsWith("HEAD "), &head);
        QVERIFY2(status == c.status,
                 qPrintable(QStringLiteral("%1: expected %2, got %3: %4")
                                .arg(c.name)
                                .arg(c.status)
                                .arg(status)
                                .arg(QString::fromLatin1(head.left(200)).trimmed())));
        if (c.staysOpen) {
            QVERIFY2(!head.contains("Connection: close"), head.constData());
            QVERIFY(probe.send("GET /4K.bin HTTP/1.1\r\nHost: t\r\n\r\n"));
            const int next = probe.readStatus(false, &head);
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
        QCOMPARE(countOpenFds(), m_fdsBefore);
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
    for (const auto &mode : server::availableModes()) {
        if (!only.isEmpty() && !only.contains(QString::fromStdString(mode.name())))
            continue;
        qInfo("=== mode %s", mode.name().c_str());
        TestConformance test(mode.name(), root.path(), cases);
        failures += QTest::qExec(&test, argc, argv);
    }
    return failures;
}

#include "tst_conformance.moc"
