// SPDX-License-Identifier: Apache-2.0
// The multi-host fixture (netlab.sh): namespaces joined by a bridge, a real sshd in each, one
// an hour ahead on CLOCK_MONOTONIC; the coordinator runs in its own namespace and reaches the
// agents with the real ssh, as it would reach other machines. Root only; skipped with the
// reason elsewhere. Label multihost.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString &program, const QStringList &arguments, int timeoutMs = 60000)
{
    QProcess process;
    process.start(program, arguments);
    Run result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("%1 did not finish within %2 ms").arg(program).arg(timeoutMs);
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// A row of `hosts check`'s table, by its role ("load 2"): the cells split on runs of spaces.
QStringList rowOf(const QString &table, const QString &role)
{
    for (const QString &line : table.split(u'\n'))
        if (line.startsWith(role + QStringLiteral("  ")))
            return line.split(QRegularExpression(QStringLiteral(" {2,}")));
    return {};
}

} // namespace

class TestMultiHost : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("the multi-host fixture needs root (network namespaces, sshd)");
        QVERIFY(m_dir.isValid());
        m_tag = QStringLiteral("sl%1").arg(::getpid() % 10000);
        const Run up = run(QStringLiteral(SERVELAB_NETLAB),
                           {QStringLiteral("up"), m_dir.filePath(QStringLiteral("lab")), m_tag});
        if (up.exitCode == 77)
            QSKIP(qPrintable(QStringLiteral("the multi-host fixture cannot run here: ") +
                             up.err.trimmed()));
        QVERIFY2(up.exitCode == 0, qPrintable(up.err));
        m_up = true;
        QFile env(m_dir.filePath(QStringLiteral("lab/env")));
        QVERIFY(env.open(QIODevice::ReadOnly));
        for (const QByteArray &line : env.readAll().split('\n'))
            if (const auto at = line.indexOf('='); at > 0)
                m_env.insert(QString::fromUtf8(line.left(at)), QString::fromUtf8(line.mid(at + 1)));
    }

    void cleanupTestCase()
    {
        if (m_up)
            run(QStringLiteral(SERVELAB_NETLAB),
                {QStringLiteral("down"), m_dir.filePath(QStringLiteral("lab")), m_tag});
    }

    // Every agent reached over ssh, the hour ahead measured within 1 ms, a GET from each load
    // namespace to the server's address; and nothing left listening afterwards but sshd.
    void hostsCheckAcrossNamespaces()
    {
        const Run check = hostsCheck(hostsFile({}, {}));
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
        const QStringList server = rowOf(check.out, QStringLiteral("server"));
        const QStringList near = rowOf(check.out, QStringLiteral("load 1"));
        const QStringList ahead = rowOf(check.out, QStringLiteral("load 2"));
        QVERIFY2(server.size() == 9 && near.size() == 9 && ahead.size() == 9,
                 qPrintable(check.out));
        QVERIFY2(server[8].startsWith(QStringLiteral("serving on %1:").arg(m_env["srv"])),
                 qPrintable(check.out));
        QVERIFY2(near[8].startsWith(u"ok, "), qPrintable(check.out));
        QVERIFY2(ahead[8].startsWith(u"ok, "), qPrintable(check.out));
        // Columns: offset ms (6), ± ms (7).
        const double hourMs = 3600.0 * 1000;
        const double offsetAhead = ahead[6].toDouble();
        const double offsetNear = near[6].toDouble();
        qInfo("offsets: load 1 %s ± %s ms, load 2 %s ± %s ms (an hour is %.0f ms)",
              qPrintable(near[6]), qPrintable(near[7]), qPrintable(ahead[6]), qPrintable(ahead[7]),
              hourMs);
        QVERIFY2(std::abs(offsetAhead - hourMs) <= 1.0, qPrintable(ahead.join(u'|')));
        QVERIFY2(ahead[7].toDouble() <= 1.0, qPrintable(ahead.join(u'|')));
        QVERIFY2(std::abs(offsetNear) <= 1.0, qPrintable(near.join(u'|')));

        for (const QString &host :
             {QStringLiteral("srv"), QStringLiteral("a1"), QStringLiteral("a2")}) {
            const Run listening =
                run(QStringLiteral("ip"),
                    {QStringLiteral("netns"), QStringLiteral("exec"), m_tag + u'-' + host,
                     QStringLiteral("ss"), QStringLiteral("-Hltn")});
            QCOMPARE(listening.exitCode, 0);
            for (const QString &line : listening.out.split(u'\n', Qt::SkipEmptyParts))
                QVERIFY2(line.contains(QRegularExpression(QStringLiteral(":22\\s"))),
                         qPrintable(host + QStringLiteral(" listens on more than sshd: ") + line));
        }
    }

    void aWrongKeyIsRefused()
    {
        const Run check = hostsCheck(
            hostsFile({QStringLiteral("-i"), m_dir.filePath(QStringLiteral("lab/wrong_key"))}, {}));
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(check.out.contains(
                     QStringLiteral("problem: load agent 1 (%1) is gone: it ended with "
                                    "exit status 255: root@%1: Permission denied (publickey).")
                         .arg(m_env["a1"])),
                 qPrintable(check.out));
        QVERIFY2(rowOf(check.out, QStringLiteral("load 2")).value(8).startsWith(u"ok, "),
                 qPrintable(check.out));
    }

    void anUnknownHostKeyIsRefused()
    {
        const Run check = hostsCheck(
            hostsFile({}, {QStringLiteral("-o"),
                           QStringLiteral("UserKnownHostsFile=") +
                               m_dir.filePath(QStringLiteral("lab/empty_known_hosts"))}));
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(
            check.out.contains(QStringLiteral("problem: load agent 2 (%1) is gone: it ended with "
                                              "exit status 255: Host key verification failed.")
                                   .arg(m_env["a2"])),
            qPrintable(check.out));
    }

private:
    // The hosts file: the built-in ssh connector, the fixture's client configuration; extra
    // options for load host 1 and load host 2 (a wrong key, an empty known_hosts).
    QString hostsFile(const QStringList &first, const QStringList &second)
    {
        const QString lab = m_dir.filePath(QStringLiteral("lab"));
        const auto options = [&](const QStringList &extra) {
            QStringList all{QStringLiteral("-F"), lab + QStringLiteral("/ssh_config")};
            if (!extra.contains(QStringLiteral("-i")))
                all << QStringLiteral("-i") << lab + QStringLiteral("/client_key");
            all += extra;
            return QStringLiteral("[\"%1\"]").arg(all.join(QStringLiteral("\", \"")));
        };
        const QString text =
            QStringLiteral(R"({"servelab": 1, "agent": "%1",
  "server": {"host": "%2", "address": "%2", "options": %5},
  "load": [{"host": "%3", "options": %6}, {"host": "%4", "options": %7}]})")
                .arg(qEnvironmentVariable("SERVELAB_CLI"), m_env["srv"], m_env["a1"], m_env["a2"],
                     options({}), options(first), options(second));
        const QString path = m_dir.filePath(QStringLiteral("hosts-%1.json").arg(++m_files));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(text.toUtf8());
        return path;
    }

    // `servelab-cli hosts check` run where a coordinator would be: the coord namespace.
    Run hostsCheck(const QString &file)
    {
        return run(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("exec"),
                                          m_env["coord"], qEnvironmentVariable("SERVELAB_CLI"),
                                          QStringLiteral("hosts"), QStringLiteral("check"), file});
    }

    QTemporaryDir m_dir;
    QString m_tag;
    bool m_up = false;
    QHash<QString, QString> m_env;
    int m_files = 0;
};

QTEST_GUILESS_MAIN(TestMultiHost)
#include "tst_multihost.moc"
