// SPDX-License-Identifier: Apache-2.0
#include "client/closedclient.h"
#include "lab/spec/docrootgenerator.h"
#include "lab/spec/servertemplate.h"
#include "lab/targets/externalserver.h"
#include "tls/selfsignedpair.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace servelab;

namespace {

bool alive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    return stat.open(QIODevice::ReadOnly) && !stat.readAll().contains(") Z ");
}

// Every process whose process group is `group`.
int groupMembers(qint64 group)
{
    int members = 0;
    const auto entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const auto &entry : entries) {
        bool number = false;
        entry.toLongLong(&number);
        if (!number)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const auto fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.value(2).toLongLong() == group && fields.value(0) != "Z")
            ++members;
    }
    return members;
}

} // namespace

class TestExternalServer : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_root;
    QList<quint64> m_sizes{0, 1, 4096, 48 * 1024 - 1, 48 * 1024, (1 << 20) + 7};

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(lab::DocRootGenerator::ensure(m_root.path(), m_sizes, &error), qPrintable(error));
        // Servers that drop privileges (Apache's children run as www-data when we are root)
        // must be able to read it, as they would a real document root.
        QVERIFY(QFile::setPermissions(m_root.path(), QFile::ReadOwner | QFile::WriteOwner |
                                                         QFile::ExeOwner | QFile::ReadGroup |
                                                         QFile::ExeGroup | QFile::ReadOther |
                                                         QFile::ExeOther));
    }

    void servesTheFilesAndStopsCleanly_data()
    {
        QTest::addColumn<QString>("target");
        // Installed by packaging/test.sh on both legs; the others on the Debian 12 leg.
        QTest::addColumn<bool>("required");
        QTest::addColumn<bool>("https"); // with ServeLab's self-signed pair, checked
        QTest::newRow("nginx") << QStringLiteral("nginx") << true << false;
        QTest::newRow("lighttpd") << QStringLiteral("lighttpd") << true << false;
        QTest::newRow("apache") << QStringLiteral("apache") << false << false;
        QTest::newRow("h2o") << QStringLiteral("h2o") << false << false;
        QTest::newRow("tomcat") << QStringLiteral("tomcat") << false << false;
        QTest::newRow("tomcat-nosendfile") << QStringLiteral("tomcat-nosendfile") << false << false;
        QTest::newRow("nginx https") << QStringLiteral("nginx") << true << true;
        QTest::newRow("lighttpd https") << QStringLiteral("lighttpd") << true << true;
        QTest::newRow("apache https") << QStringLiteral("apache") << false << true;
        QTest::newRow("h2o https") << QStringLiteral("h2o") << false << true;
    }
    // A template not installed says what brings it; anything else says nothing.
    void notInstalledSaysWhatToInstall()
    {
        qputenv("TOMCAT_HOME", "/nonexistent/tomcat");
        QCOMPARE(lab::ServerTemplate::notInstalled(QStringLiteral("tomcat")),
                 QStringLiteral("tomcat is not installed on this machine, so its points would be "
                                "DNF: install it (apt-get install tomcat10 default-jre-headless) "
                                "or remove the target"));
        qunsetenv("TOMCAT_HOME");
        QVERIFY(lab::ServerTemplate::notInstalled(QStringLiteral("nginx")).isEmpty()); // required
        QVERIFY(lab::ServerTemplate::notInstalled(QStringLiteral("builtin")).isEmpty());
        QVERIFY(lab::ServerTemplate::notInstalled(QStringLiteral("command:true")).isEmpty());
    }

    void servesTheFilesAndStopsCleanly()
    {
        QFETCH(QString, target);
        QFETCH(bool, required);
        QFETCH(bool, https);
        if (lab::ServerTemplate::binaryFor(target).isEmpty()) {
            QVERIFY2(
                !required,
                qPrintable(target + QStringLiteral(" must be installed: run packaging/test.sh")));
            QSKIP(qPrintable(
                target + QStringLiteral(" is not installed here; its template is not exercised")));
        }
        lab::ExternalServer server;
        QString error;
        std::string certificate;
        if (https) {
            std::string key;
            std::string why;
            QVERIFY2(tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                                 tls::SelfSignedPair::Key::EcdsaP256, &certificate,
                                                 &key, &why),
                     why.c_str());
            server.setTls(QString::fromStdString(certificate), QString::fromStdString(key));
        }
        QVERIFY2(server.start(target, m_root.path(), 2, &error), qPrintable(error));
        QVERIFY(server.port() != 0);
        const qint64 leader = server.pid();
        QVERIFY(alive(leader));
        for (quint64 size : m_sizes) {
            client::ClientOptions o;
            o.tls.enabled = https;
            o.tls.caFile = certificate;
            o.port = server.port();
            o.path = "/" + lab::DocRootGenerator::fileNameFor(size).toStdString();
            o.requests = 20;
            o.concurrency = 2;
            o.keepAlive = true;
            o.expectedBodyLength = size;
            const auto r = client::ClosedClient(o).run();
            QVERIFY2(r.ok == 20, qPrintable(QStringLiteral("%1: %2 of 20 ok for %3 bytes")
                                                .arg(target)
                                                .arg(r.ok)
                                                .arg(size)));
            QCOMPARE(r.bodyBytes, 20 * size);
            QCOMPARE(r.tlsHandshakes, https ? r.connects : 0u);
        }
        server.stop();
        QVERIFY(!alive(leader));
        QTRY_COMPARE_WITH_TIMEOUT(groupMembers(leader), 0, 3000); // workers went with it
    }

    void speaksHttp2_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("required");
        QTest::addColumn<bool>("https"); // h2 by ALPN; else h2c with prior knowledge
        for (const auto &[name, required] :
             {std::pair{"nginx", true}, std::pair{"lighttpd", true}, std::pair{"h2o", false}}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 h2c").arg(QLatin1StringView(name))))
                << QString::fromLatin1(name) << required << false;
            QTest::newRow(qPrintable(QStringLiteral("%1 h2").arg(QLatin1StringView(name))))
                << QString::fromLatin1(name) << required << true;
        }
    }
    // The templates over HTTP/2: ServeLab's client (4 streams to a connection), and where
    // installed curl, nghttp, h2load and python3-h2, each file byte for byte.
    void speaksHttp2()
    {
        QFETCH(QString, target);
        QFETCH(bool, required);
        QFETCH(bool, https);
        if (lab::ServerTemplate::binaryFor(target).isEmpty()) {
            QVERIFY2(!required, qPrintable(target + QStringLiteral(" must be installed")));
            QSKIP(qPrintable(target + QStringLiteral(" is not installed here")));
        }
        lab::ExternalServer server;
        std::string certificate;
        if (https) {
            std::string key, why;
            QVERIFY2(tls::SelfSignedPair::ensure(tls::SelfSignedPair::defaultFolder(),
                                                 tls::SelfSignedPair::Key::EcdsaP256, &certificate,
                                                 &key, &why),
                     why.c_str());
            server.setTls(QString::fromStdString(certificate), QString::fromStdString(key));
        }
        server.setHttp2(true);
        QString error;
        QVERIFY2(server.start(target, m_root.path(), 1, &error), qPrintable(error));
        const QString base = QStringLiteral("%1://127.0.0.1:%2/")
                                 .arg(https ? QStringLiteral("https") : QStringLiteral("http"))
                                 .arg(server.port());
        for (quint64 size : m_sizes) {
            client::ClientOptions o;
            o.tls.enabled = https;
            o.tls.caFile = certificate;
            o.http2 = true;
            o.streams = 4;
            o.port = server.port();
            o.path = "/" + lab::DocRootGenerator::fileNameFor(size).toStdString();
            o.verifyRoot = m_root.path().toStdString();
            o.requests = 16;
            o.concurrency = 1;
            const auto r = client::ClosedClient(o).run();
            QVERIFY2(
                r.ok == 16,
                qPrintable(QStringLiteral("%1: %2 of 16 ok for %3 bytes (%4)")
                               .arg(target)
                               .arg(r.ok)
                               .arg(size)
                               .arg(QString::fromUtf8(client::errorKindText(r.dominantError())))));
            QCOMPARE(r.connects, 1u);
        }
        // What another tool says, run with what it needs; "" when it is not installed.
        const auto run = [&](const QString &tool, const QStringList &arguments,
                             QByteArray *out = nullptr) -> QString {
            if (QStandardPaths::findExecutable(tool).isEmpty())
                return {};
            QProcess p;
            p.start(tool, arguments);
            if (!p.waitForFinished(60000)) {
                p.kill();
                p.waitForFinished();
                return tool + QStringLiteral(" timed out");
            }
            if (out)
                *out = p.readAllStandardOutput();
            return p.exitCode() == 0 ? QStringLiteral("ok")
                                     : tool + QStringLiteral(": ") +
                                           QString::fromLocal8Bit(p.readAllStandardError());
        };
        const QStringList tlsFlags =
            https ? QStringList{QStringLiteral("--cacert"), QString::fromStdString(certificate)}
                  : QStringList{};
        for (quint64 size : m_sizes) {
            const QString name = lab::DocRootGenerator::fileNameFor(size);
            QFile file(m_root.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray expected = file.readAll();
            QByteArray body;
            QString said = run(QStringLiteral("curl"),
                               QStringList{QStringLiteral("-sS"), QStringLiteral("--fail"),
                                           https ? QStringLiteral("--http2")
                                                 : QStringLiteral("--http2-prior-knowledge")} +
                                   tlsFlags + QStringList{base + name},
                               &body);
            QVERIFY2(said.isEmpty() || said == u"ok", qPrintable(said));
            if (!said.isEmpty())
                QVERIFY2(body == expected, qPrintable(QStringLiteral("curl: %1 bytes of %2")
                                                          .arg(body.size())
                                                          .arg(expected.size())));
            if (!https) { // nghttp takes no CA file: h2c
                said = run(QStringLiteral("nghttp"), {base + name}, &body);
                QVERIFY2(said.isEmpty() || said == u"ok", qPrintable(said));
                if (!said.isEmpty())
                    QVERIFY2(body == expected, qPrintable(QStringLiteral("nghttp: %1 bytes of %2")
                                                              .arg(body.size())
                                                              .arg(expected.size())));
            }
        }
        QByteArray version;
        const QString spoke =
            run(QStringLiteral("curl"),
                QStringList{
                    QStringLiteral("-sS"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                    QStringLiteral("-w"), QStringLiteral("%{http_version}"),
                    https ? QStringLiteral("--http2") : QStringLiteral("--http2-prior-knowledge")} +
                    tlsFlags + QStringList{base},
                &version);
        QVERIFY2(spoke.isEmpty() || version == "2", version.constData()); // not a fallback
        QByteArray report;
        const QString said = run(QStringLiteral("h2load"),
                                 {QStringLiteral("-n"), QStringLiteral("40"), QStringLiteral("-c"),
                                  QStringLiteral("2"), QStringLiteral("-m"), QStringLiteral("4"),
                                  base + lab::DocRootGenerator::fileNameFor(4096)},
                                 &report);
        QVERIFY2(said.isEmpty() || report.contains("40 succeeded, 0 failed"), report.constData());
        if (!QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty() &&
            QProcess::execute(QStringLiteral("/usr/bin/python3"),
                              {QStringLiteral("-c"), QStringLiteral("import h2")}) == 0) {
            QProcess check;
            check.start(
                QStringLiteral("/usr/bin/python3"),
                QStringList{QStringLiteral(H2CHECK), QString::number(server.port()), m_root.path(),
                            QString::number(server.pid()), QStringLiteral("--fetch-only")} +
                    (https
                         ? QStringList{QStringLiteral("--tls"), QString::fromStdString(certificate)}
                         : QStringList{}));
            QVERIFY(check.waitForFinished(120000));
            QVERIFY2(check.exitCode() == 0, check.readAll().constData());
        }
        server.stop();
    }

    // A template that speaks no HTTP/2 says why, before it needs its binary.
    void refusesHttp2WhereTheTemplateCannot()
    {
        lab::ExternalServer server;
        server.setHttp2(true);
        QString error;
        QVERIFY(!server.start(QStringLiteral("apache"), m_root.path(), 1, &error));
        QVERIFY2(error.contains(QStringLiteral("apache speaks no HTTP/2 here: apache runs the "
                                               "prefork MPM")),
                 qPrintable(error));
    }

    // As root, Apache's workers are www-data: a document root under a folder only root may
    // enter (the default, under /root) is served from hard links in a folder they can read,
    // the folder itself left as it was, the links gone at stop().
    void apacheAsRootServesARootOnlyRootCanEnter()
    {
        if (geteuid() != 0 || lab::ServerTemplate::binaryFor(QStringLiteral("apache")).isEmpty())
            QSKIP("needs root and apache2");
        QTemporaryDir closed; // 0700, as /root is
        const QString root = QDir(closed.path()).filePath(QStringLiteral("docroot"));
        QString error;
        QVERIFY2(lab::DocRootGenerator::ensure(root, {4096, 1 << 20}, &error), qPrintable(error));
        QVERIFY(!(QFileInfo(closed.path()).permissions() & QFileDevice::ExeOther));
        lab::ExternalServer server;
        QVERIFY2(server.start(QStringLiteral("apache"), root, 1, &error), qPrintable(error));
        const QStringList mirrors =
            QDir(QDir::tempPath()).entryList({QStringLiteral("servelab-docroot-*")}, QDir::Dirs);
        QVERIFY(!mirrors.isEmpty());
        for (quint64 size : {4096ull, 1ull << 20}) {
            client::ClientOptions o;
            o.port = server.port();
            o.path = "/" + lab::DocRootGenerator::fileNameFor(size).toStdString();
            o.requests = 10;
            o.expectedBodyLength = size;
            const auto r = client::ClosedClient(o).run();
            QCOMPARE(r.ok, 10u);
        }
        server.stop();
        QVERIFY(!(QFileInfo(closed.path()).permissions() & QFileDevice::ExeOther)); // untouched
        QVERIFY(QFile::exists(QDir(root).filePath(QStringLiteral("4K.bin"))));
        for (const QString &mirror : mirrors)
            QVERIFY2(!QFileInfo::exists(QDir(QDir::tempPath()).filePath(mirror)),
                     qPrintable(mirror));
    }

    void commandTemplate()
    {
        lab::ExternalServer server;
        QString error;
        // A command with {port} and {root}: here our own serve, as any other server would be.
        const QString cli = QStringLiteral(SERVELAB_CLI);
        QVERIFY2(
            server.start(QStringLiteral("command:%1 serve --port {port} --root {root}").arg(cli),
                         m_root.path(), 1, &error),
            qPrintable(error));
        client::ClientOptions o;
        o.port = server.port();
        o.path = "/4K.bin";
        o.requests = 5;
        o.expectedBodyLength = 4096;
        QCOMPARE(client::ClosedClient(o).run().ok, 5u);
    }

    void failuresAreClearAndLeaveNothing_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("exits at once")
            << QStringLiteral("command:false {port}") << QStringLiteral("exited before listening");
        QTest::newRow("never listens")
            << QStringLiteral("command:sleep 30 {port}") << QStringLiteral("did not listen within");
        QTest::newRow("no such program") << QStringLiteral("command:/nonexistent/server {port}")
                                         << QStringLiteral("/nonexistent/server");
        QTest::newRow("no port") << QStringLiteral("command:sleep 30") << QStringLiteral("{port}");
        QTest::newRow("unknown template")
            << QStringLiteral("gopher") << QStringLiteral("no template for 'gopher'");
    }
    void failuresAreClearAndLeaveNothing()
    {
        QFETCH(QString, target);
        QFETCH(QString, mentions);
        lab::ExternalServer server;
        QString error;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!server.start(target, m_root.path(), 1, &error, 500));
        QVERIFY2(error.contains(mentions), qPrintable(error));
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(server.pid(), 0); // stopped and forgotten: no `sleep` left behind
    }
};

QTEST_GUILESS_MAIN(TestExternalServer)
#include "tst_externalserver.moc"
