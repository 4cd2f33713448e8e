// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"
#include "clirun.h"
#include "csvrows.h"
#include "lab/results/resultstore.h"
#include "lab/spec/servertemplate.h"
#include "server/listener.h"
#include "testshard.h"
#include "tls/tlsservercontext.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace servelab;

namespace {

using Run = CliRun;

Run runCli(const QStringList &arguments, int timeoutMs = 60000)
{
    return runProgram(QStringLiteral(SERVELAB_CLI), arguments, timeoutMs);
}

QByteArray readFile(const QString &path)
{
    return readWholeFile(path);
}

// The children of process `pid` now, whichever of its threads started them (each task lists
// its own: the run starts its isolated servers from the experiment's thread).
QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> children;
    const QString tasks = QStringLiteral("/proc/%1/task/").arg(pid);
    for (const QString &task : QDir(tasks).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString list =
            QString::fromLatin1(readFile(tasks + task + QStringLiteral("/children")));
        for (const QString &child : list.split(u' ', Qt::SkipEmptyParts))
            children << child.toLongLong();
    }
    return children;
}

// The established TCP connections (socket inodes) of the children of `pid`: an isolated server
// that a client of the run is talking to. Its listening socket and its control channel (a Unix
// socket, made as it starts, before any point) do not count: taken for a client, they let a test
// interrupt the run before its first point began (ASan leg, CI of 97c6951).
QSet<QByteArray> childConnections(qint64 pid)
{
    QSet<QByteArray> established;
    for (const qint64 child : childrenOf(pid)) {
        // Counted from the links themselves: a ProcessProbe may skip listing the types on a
        // slow machine, and then says 0 sockets.
        const QString dir = QStringLiteral("/proc/%1/fd/").arg(child);
        QSet<QByteArray> inodes;
        for (const QString &fd : QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::System)) {
            char target[64] = {};
            const ssize_t n = ::readlink(qPrintable(dir + fd), target, sizeof target - 1);
            const std::string_view link(target, n > 0 ? std::size_t(n) : 0);
            if (link.starts_with("socket:[") && link.ends_with("]"))
                inodes.insert(QByteArray(link.data() + 8, qsizetype(link.size() - 9)));
        }
        // /proc/net/tcp: "sl local remote st ... uid timeout inode"; state 01 is ESTABLISHED.
        for (const char *table : {"tcp", "tcp6"}) {
            QFile file(QStringLiteral("/proc/%1/net/%2").arg(child).arg(QLatin1String(table)));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &line : file.readAll().split('\n')) {
                const QList<QByteArray> fields = line.simplified().split(' ');
                if (fields.size() > 9 && fields[3] == "01" && inodes.contains(fields[9]))
                    established.insert(fields[9]);
            }
        }
    }
    return established;
}

// A `servelab-cli serve` child; stopped with SIGTERM, as a user's Ctrl-C would.
class ServeProcess
{
public:
    bool start(const QString &root, quint16 port = 0, const QStringList &more = {})
    {
        m_process.start(QStringLiteral(SERVELAB_CLI),
                        QStringList{QStringLiteral("serve"), QStringLiteral("--root"), root,
                                    QStringLiteral("--port"), QString::number(port),
                                    QStringLiteral("--threads"), QStringLiteral("2")} +
                            more);
        if (!m_process.waitForReadyRead(10000))
            return false;
        const QString line = QString::fromUtf8(m_process.readLine());
        const auto match =
            QRegularExpression(QStringLiteral("^listening on 127\\.0\\.0\\.1:(\\d+)\n$"))
                .match(line);
        m_port = match.hasMatch() ? match.captured(1).toUShort() : 0;
        return m_port != 0;
    }
    quint16 port() const { return m_port; }
    QString url(const QString &path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path);
    }
    Run stop()
    {
        Run run;
        ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
            return run;
        }
        run.code = m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        run.out = QString::fromUtf8(m_process.readAllStandardOutput());
        run.err = QString::fromUtf8(m_process.readAllStandardError());
        return run;
    }
    ~ServeProcess()
    {
        if (m_process.state() != QProcess::NotRunning)
            stop();
    }

private:
    ChildProcess m_process;
    quint16 m_port = 0;
};

} // namespace

class TestServelabCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_root;

private Q_SLOTS:
    // ctest runs this executable in shards side by side (tests/app/CMakeLists.txt).
    void init() { SERVELAB_SHARD_INIT(); }
    void initTestCase()
    {
        QFile file(m_root.filePath(QStringLiteral("hello.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(10000, 'x'));
    }

    void badArgumentsExitTwoWithOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        const QString root = m_root.path();
        QTest::newRow("no command") << QStringList{} << QStringLiteral("no command");
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("'frobnicate'");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("serve"), QStringLiteral("--bogus")}
            << QStringLiteral("bogus");
        QTest::newRow("unknown mode")
            << QStringList{QStringLiteral("serve"), QStringLiteral("--root"), root,
                           QStringLiteral("--mode"), QStringLiteral("carrier+pigeon")}
            << QStringLiteral("server mode 'carrier+pigeon': there is no event model 'carrier'");
        QTest::newRow("missing root")
            << QStringList{QStringLiteral("serve"), QStringLiteral("--root"),
                           QStringLiteral("/nonexistent/servelab-root")}
            << QStringLiteral("/nonexistent/servelab-root");
        QTest::newRow("no root") << QStringList{QStringLiteral("serve")}
                                 << QStringLiteral("--root");
        QTest::newRow("bad port") << QStringList{QStringLiteral("serve"), QStringLiteral("--root"),
                                                 root, QStringLiteral("--port"),
                                                 QStringLiteral("70000")}
                                  << QStringLiteral("--port");
        QTest::newRow("not a url")
            << QStringList{QStringLiteral("load"), QStringLiteral("ftp://x/")}
            << QStringLiteral("ftp://x/");
        QTest::newRow("bad -n") << QStringList{QStringLiteral("load"), QStringLiteral("-n"),
                                               QStringLiteral("many"),
                                               QStringLiteral("http://127.0.0.1/")}
                                << QStringLiteral("-n");
        QTest::newRow("c above n")
            << QStringList{QStringLiteral("load"), QStringLiteral("-n"),
                           QStringLiteral("2"),    QStringLiteral("-c"),
                           QStringLiteral("3"),    QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-c 3 cannot exceed -n (2), as in ab");
        QTest::newRow("unknown model")
            << QStringList{QStringLiteral("load"), QStringLiteral("--model"),
                           QStringLiteral("open"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--model wants closed, duration, rate or ramp, not 'open'");
        QTest::newRow("wrk's -t, without --model")
            << QStringList{QStringLiteral("load"), QStringLiteral("-d"),
                           QStringLiteral("3"),    QStringLiteral("-c"),
                           QStringLiteral("64"),   QStringLiteral("-t"),
                           QStringLiteral("1"),    QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-t is ab's time limit, not wrk's threads (those are --threads)");
        QTest::newRow("a flag the model does not take")
            << QStringList{QStringLiteral("load"),     QStringLiteral("--model"),
                           QStringLiteral("duration"), QStringLiteral("-n"),
                           QStringLiteral("5"),        QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-n does not apply to --model duration: -n is ab's request count");
        // The rate client keeps its own schedule: a think time between requests it would ignore.
        QTest::newRow("rate with a keep-alive think")
            << QStringList{QStringLiteral("load"),       QStringLiteral("--model"),
                           QStringLiteral("rate"),       QStringLiteral("-R"),
                           QStringLiteral("100"),        QStringLiteral("--keepalive-think"),
                           QStringLiteral("fixed:50ms"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--keepalive-think does not apply to --model rate: "
                              "--keepalive-think is a wait between requests on a kept-alive "
                              "connection; rate and ramp keep their own schedule (closed, "
                              "duration)");
        QTest::newRow("bad mix") << QStringList{QStringLiteral("load"), QStringLiteral("--mix"),
                                                QStringLiteral("/4K.bin:x"),
                                                QStringLiteral("http://127.0.0.1/")}
                                 << QStringLiteral("--mix wants /path:weight");
        QTest::newRow("probability above 1")
            << QStringList{QStringLiteral("load"), QStringLiteral("--close-probability"),
                           QStringLiteral("2"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--close-probability wants a number from 0 to 1");
        QTest::newRow("ramp without a steady state")
            << QStringList{QStringLiteral("load"),  QStringLiteral("--model"),
                           QStringLiteral("ramp"),  QStringLiteral("--ramp"),
                           QStringLiteral("5/0/5"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--ramp wants up/steady/down");
        QTest::newRow("unknown think time")
            << QStringList{QStringLiteral("load"),         QStringLiteral("--model"),
                           QStringLiteral("ramp"),         QStringLiteral("--think"),
                           QStringLiteral("gaussian:5ms"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("'gaussian:5ms' is not a think time");
        QTest::newRow("rate without a rate")
            << QStringList{QStringLiteral("load"), QStringLiteral("--model"),
                           QStringLiteral("rate"), QStringLiteral("-R"),
                           QStringLiteral("0"),    QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-R wants a rate above 0");
        QTest::newRow("threads above connections")
            << QStringList{QStringLiteral("load"),     QStringLiteral("--model"),
                           QStringLiteral("duration"), QStringLiteral("--threads"),
                           QStringLiteral("4"),        QStringLiteral("-c"),
                           QStringLiteral("2"),        QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--threads 4 cannot exceed -c (2): each thread needs its own "
                              "connection, as in wrk");
        QTest::newRow("verify without a directory")
            << QStringList{QStringLiteral("load"), QStringLiteral("--verify"),
                           QStringLiteral("/nonexistent/root"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("'/nonexistent/root' is not a directory");
        QTest::newRow("streams without http2")
            << QStringList{QStringLiteral("load"), QStringLiteral("-m"), QStringLiteral("4"),
                           QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-m applies with --http2");
        QTest::newRow("http2 with ab's reads")
            << QStringList{QStringLiteral("load"), QStringLiteral("--http2"),
                           QStringLiteral("--ab-reads"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--ab-reads is HTTP/1's; drop it or --http2");
        QTest::newRow("bad streams")
            << QStringList{QStringLiteral("load"), QStringLiteral("--http2"), QStringLiteral("-m"),
                           QStringLiteral("0"), QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("-m wants streams per connection from 1 to 1000, not '0'");
        QTest::newRow("bad h2 window")
            << QStringList{QStringLiteral("load"), QStringLiteral("--http2"),
                           QStringLiteral("--h2-window"), QStringLiteral("1K"),
                           QStringLiteral("http://127.0.0.1/")}
            << QStringLiteral("--h2-window wants a size from 65535 to 1073741823, not '1K'");
        QTest::newRow("watch without a pid")
            << QStringList{QStringLiteral("watch"), QStringLiteral("nginx")}
            << QStringLiteral("watch wants one process id");
        QTest::newRow("bad sizes")
            << QStringList{QStringLiteral("sweep"), QStringLiteral("--sizes"),
                           QStringLiteral("4K,lots")}
            << QStringLiteral("'lots'");
        QTest::newRow("sweep takes no argument")
            << QStringList{QStringLiteral("sweep"), QStringLiteral("4K")}
            << QStringLiteral("servelab-cli sweep: unexpected argument '4K'");
        QTest::newRow("serve takes no argument")
            << QStringList{QStringLiteral("serve"), QStringLiteral("--root"),
                           QStringLiteral("/tmp"), QStringLiteral("8080")}
            << QStringLiteral("servelab-cli serve: unexpected argument '8080'");
    }
    void badArgumentsExitTwoWithOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const Run run = runCli(arguments);
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(mentions), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(run.out.isEmpty());
    }

    void refusedUrlExitsOne()
    {
        const Run run = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("5"),
                                QStringLiteral("http://127.0.0.1:%1/")
                                    .arg(servelab::server::Listener::freeLoopbackPort())});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("connection refused")), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        // The partial results still come, with the error breakdown.
        QVERIFY2(run.out.contains(QStringLiteral("Complete requests:      5\n")),
                 qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("         5 connection refused\n")));
    }

    // h2c: -c connections carrying -m streams each, the protocol in both reports.
    void loadOverH2c()
    {
        ServeProcess serve;
        QVERIFY(serve.start(m_root.path(), 0,
                            {QStringLiteral("--mode"), QStringLiteral("epoll+copy"),
                             QStringLiteral("--http2"), QStringLiteral("on")}));
        const QString url = serve.url(QStringLiteral("/hello.txt"));
        Run load = runCli({QStringLiteral("load"), QStringLiteral("--http2"), QStringLiteral("-n"),
                           QStringLiteral("40"), QStringLiteral("-c"), QStringLiteral("2"),
                           QStringLiteral("-m"), QStringLiteral("4"), QStringLiteral("--json"),
                           QStringLiteral("--verify"), m_root.path(), url});
        QCOMPARE(load.code, 0);
        const auto json = QJsonDocument::fromJson(load.out.toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("protocol")).toString(), QStringLiteral("h2c"));
        QCOMPARE(json.value(QStringLiteral("streams")).toInt(), 4);
        QCOMPARE(json.value(QStringLiteral("ok")).toInt(), 40);
        QCOMPARE(json.value(QStringLiteral("connects")).toInt(), 2);
        load = runCli({QStringLiteral("load"), QStringLiteral("--http2"), QStringLiteral("-n"),
                       QStringLiteral("8"), QStringLiteral("-c"), QStringLiteral("2"),
                       QStringLiteral("-m"), QStringLiteral("4"), url});
        QCOMPARE(load.code, 0);
        QVERIFY2(load.out.contains(QStringLiteral(
                     "Concurrency Level:      8 (2 connections x 4 streams, h2c)\n")),
                 qPrintable(load.out));
    }

    // https: serve's self-signed pair checked by load --cacert, every handshake policy
    // reported, resumption counted, and the flags that make no sense refused.
    void loadOverHttps()
    {
        ServeProcess serve;
        QVERIFY(serve.start(m_root.path(), 0,
                            {QStringLiteral("--mode"), QStringLiteral("epoll+copy"),
                             QStringLiteral("--tls"), QStringLiteral("self-signed")}));
        const QString url = QStringLiteral("https://127.0.0.1:%1/hello.txt").arg(serve.port());
        const QString ca = QString::fromLocal8Bit(qgetenv("XDG_CACHE_HOME")) +
                           QStringLiteral("/servelab/tls/localhost-p256.crt");
        Run load = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("20"),
                           QStringLiteral("-k"), QStringLiteral("--cacert"), ca, url});
        QCOMPARE(load.code, 0);
        QVERIFY2(
            load.out.contains(QStringLiteral("TLS handshakes: 1 (0 resumed), policy keepalive")),
            qPrintable(load.out));
        QVERIFY(load.out.contains(QStringLiteral("\nTLS: ")));

        load = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("20"),
                       QStringLiteral("--handshake"), QStringLiteral("resume"),
                       QStringLiteral("--cacert"), ca, QStringLiteral("--json"), url});
        QCOMPARE(load.code, 0);
        const auto tls = QJsonDocument::fromJson(load.out.toUtf8())
                             .object()
                             .value(QStringLiteral("tls"))
                             .toObject();
        QCOMPARE(tls.value(QStringLiteral("policy")).toString(), QStringLiteral("resume"));
        QCOMPARE(tls.value(QStringLiteral("handshakes")).toInt(), 20);
        QCOMPARE(tls.value(QStringLiteral("resumed")).toInt(), 19);

        load = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("2"), url});
        QCOMPARE(load.code, 1);
        QVERIFY2(load.out.contains(QStringLiteral("self-signed certificate")),
                 qPrintable(load.out));

        load = runCli({QStringLiteral("load"), QStringLiteral("--cacert"), ca,
                       serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 2);
        QVERIFY2(load.err.contains(QStringLiteral("--cacert applies to https:// URLs")),
                 qPrintable(load.err));
        load = runCli({QStringLiteral("load"), QStringLiteral("-k"), QStringLiteral("--handshake"),
                       QStringLiteral("new"), url});
        QCOMPARE(load.code, 2);
        QVERIFY2(load.err.contains(QStringLiteral("drop -k")), qPrintable(load.err));
    }

    void serveLoadAndPortInUse()
    {
        ServeProcess serve;
        QVERIFY(serve.start(m_root.path()));

        Run load = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("100"),
                           QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-k"),
                           serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        QVERIFY2(load.out.contains(QStringLiteral("Complete requests:      100\n")),
                 qPrintable(load.out));
        QVERIFY(load.out.contains(QStringLiteral("Failed requests:        0\n")));
        QVERIFY(load.out.contains(QStringLiteral("HTML transferred:       1000000 bytes\n")));
        QVERIFY(load.out.contains(QStringLiteral("[Kbytes/sec] received")));
        QVERIFY(load.out.contains(QStringLiteral(" 100%")));
        QVERIFY(load.out.contains(QStringLiteral("Connection Times (ms)\n")));
        QVERIFY(load.out.contains(QStringLiteral("\nProcessing: ")));

        load = runCli({QStringLiteral("load"), QStringLiteral("-n"), QStringLiteral("10"),
                       QStringLiteral("--http1.0"), QStringLiteral("--verify"), m_root.path(),
                       QStringLiteral("--json"), serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        const auto json = QJsonDocument::fromJson(load.out.toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("ok")).toInt(), 10);
        QCOMPARE(json.value(QStringLiteral("body_bytes")).toInteger(), 100000);
        QVERIFY(json.value(QStringLiteral("kib_per_s")).toDouble() > 0);

        // wrk's semantics and report: kept-alive connections over threads for -d seconds.
        load = runCli({QStringLiteral("load"), QStringLiteral("--model"),
                       QStringLiteral("duration"), QStringLiteral("-d"), QStringLiteral("1"),
                       QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("--threads"),
                       QStringLiteral("2"), serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        QVERIFY2(load.out.contains(QStringLiteral("  2 threads and 4 connections\n")),
                 qPrintable(load.out));
        QVERIFY(load.out.contains(QStringLiteral("Requests/sec:")));
        QVERIFY(load.out.contains(QStringLiteral("Transfer/sec:")));
        QVERIFY(!load.out.contains(QStringLiteral("Errors by kind")));
        const auto served = QRegularExpression(QStringLiteral("\\n  (\\d+) requests in "))
                                .match(load.out)
                                .captured(1)
                                .toLongLong();
        QVERIFY2(served > 0, qPrintable(load.out));

        // Typed as for wrk, without --model: -d chooses the duration model.
        load = runCli({QStringLiteral("load"), QStringLiteral("-d"), QStringLiteral("1"),
                       QStringLiteral("-c"), QStringLiteral("3"), QStringLiteral("--threads"),
                       QStringLiteral("3"), QStringLiteral("--json"),
                       serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        const auto wrk = QJsonDocument::fromJson(load.out.toUtf8()).object();
        QCOMPARE(wrk.value(QStringLiteral("model")).toString(), QStringLiteral("duration"));
        QCOMPARE(wrk.value(QStringLiteral("threads")).toArray().size(), 3);
        QCOMPARE(wrk.value(QStringLiteral("failed")).toInt(), 0);
        qint64 perThread = 0;
        for (const auto &t : wrk.value(QStringLiteral("threads")).toArray())
            perThread += t.toObject().value(QStringLiteral("completed")).toInteger();
        QCOMPARE(perThread, wrk.value(QStringLiteral("completed")).toInteger());
        QVERIFY(wrk.value(QStringLiteral("latency"))
                    .toObject()
                    .value(QStringLiteral("hdr"))
                    .toString()
                    .startsWith(QStringLiteral("HISTF")));
        // The 100 ms time series, as CSV, and its latencies as an HdrHistogram interval log.
        const QString series = m_root.filePath(QStringLiteral("series.csv"));
        const QString hlog = m_root.filePath(QStringLiteral("series.hlog"));
        load =
            runCli({QStringLiteral("load"), QStringLiteral("--model"), QStringLiteral("duration"),
                    QStringLiteral("-d"), QStringLiteral("1"), QStringLiteral("-c"),
                    QStringLiteral("2"), QStringLiteral("--samples"), series,
                    QStringLiteral("--hlog"), hlog, serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        QFile csv(series);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(csv.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(rows.first().startsWith(QStringLiteral("t_s,interval_s,completed,ok,failed")));
        QVERIFY2(rows.size() >= 10 && rows.size() <= 13, qPrintable(rows.join(u'\n')));
        qint64 seriesRequests = 0;
        for (const auto &row : rows.mid(1))
            seriesRequests += row.section(u',', 2, 2).toLongLong();
        QVERIFY(seriesRequests > 0);
        QFile hdr(hlog);
        QVERIFY(hdr.open(QIODevice::ReadOnly));
        const QStringList intervals =
            QString::fromUtf8(hdr.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(intervals.first().startsWith(QStringLiteral("#[Histogram log format version")));
        const QStringList histograms = intervals.filter(
            QRegularExpression(QStringLiteral(R"(^\d+\.\d{3},\d\.\d{3},\d+\.\d{3},HISTF)")));
        QCOMPARE(histograms.size(), rows.size() - 1); // one per 100 ms row of the CSV

        // wrk2's model: the offered rate, both latency distributions, late and missed slots.
        load = runCli({QStringLiteral("load"), QStringLiteral("--model"), QStringLiteral("rate"),
                       QStringLiteral("-R"), QStringLiteral("200"), QStringLiteral("-d"),
                       QStringLiteral("1"), QStringLiteral("-c"), QStringLiteral("2"),
                       QStringLiteral("--json"), serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        const auto wrk2 = QJsonDocument::fromJson(load.out.toUtf8()).object();
        QCOMPARE(wrk2.value(QStringLiteral("model")).toString(), QStringLiteral("rate"));
        QCOMPARE(wrk2.value(QStringLiteral("offered_per_s")).toDouble(), 200.0);
        QVERIFY(wrk2.value(QStringLiteral("latency_uncorrected"))
                    .toObject()
                    .contains(QStringLiteral("p99")));
        const qint64 rateRequests = wrk2.value(QStringLiteral("completed")).toInteger();
        const qint64 rateInFlight = wrk2.value(QStringLiteral("unfinished")).toInteger();
        QVERIFY2(rateRequests + rateInFlight + wrk2.value(QStringLiteral("missed")).toInteger() >=
                     198,
                 qPrintable(load.out));
        // faban's model: only the steady state counts; the validity checks come with figures.
        load = runCli({QStringLiteral("load"), QStringLiteral("--model"), QStringLiteral("ramp"),
                       QStringLiteral("--ramp"), QStringLiteral("0.2/0.6/0.2"),
                       QStringLiteral("--think"), QStringLiteral("fixed:10ms"),
                       QStringLiteral("-c"), QStringLiteral("2"), QStringLiteral("--json"),
                       serve.url(QStringLiteral("/hello.txt"))});
        QCOMPARE(load.code, 0);
        const auto fhb = QJsonDocument::fromJson(load.out.toUtf8()).object();
        QCOMPARE(fhb.value(QStringLiteral("model")).toString(), QStringLiteral("ramp"));
        QVERIFY(fhb.value(QStringLiteral("littles_law"))
                    .toObject()
                    .contains(QStringLiteral("computed_users")));
        QCOMPARE(
            fhb.value(QStringLiteral("think_time")).toObject().value(QStringLiteral("target_ms")),
            10.0);
        const qint64 rampRequests = fhb.value(QStringLiteral("completed")).toInteger() +
                                    fhb.value(QStringLiteral("outside_steady")).toInteger();
        const qint64 durationRequests =
            served + perThread + rateRequests + rampRequests + seriesRequests;

        const Run clash = runCli({QStringLiteral("serve"), QStringLiteral("--root"), m_root.path(),
                                  QStringLiteral("--port"), QString::number(serve.port())});
        QCOMPARE(clash.code, 1);
        QVERIFY2(clash.err.contains(QStringLiteral("Address already in use")),
                 qPrintable(clash.err));
        QVERIFY(clash.err.contains(QString::number(serve.port())));
        QCOMPARE(clash.err.count(u'\n'), 1);

        const Run stopped = serve.stop();
        QCOMPARE(stopped.code, 0);
        // The server answered every request the clients completed, plus at most the ones cut
        // off at the end of the duration, rate and ramp runs (4 + 3 + 2 + 2 + 2 connections).
        const auto answered = QRegularExpression(QStringLiteral("(\\d+) requests"))
                                  .match(stopped.out)
                                  .captured(1)
                                  .toLongLong();
        QVERIFY2(answered >= 110 + durationRequests && answered <= 110 + durationRequests + 13,
                 qPrintable(stopped.out));
    }

    void killedSweepLeavesNoServerBehind()
    {
        QTemporaryDir dir;
        ChildProcess sweep;
        sweep.start(QStringLiteral(SERVELAB_CLI),
                    {QStringLiteral("sweep"), QStringLiteral("--isolated"),
                     QStringLiteral("--no-db"), QStringLiteral("--sizes"), QStringLiteral("4K"),
                     QStringLiteral("-n"), QStringLiteral("100000000"), QStringLiteral("--root"),
                     dir.path()});
        QVERIFY(sweep.waitForStarted());
        const qint64 pid = sweep.processId();
        qint64 child = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            (child =
                 QString::fromLatin1(readFile(QStringLiteral("/proc/%1/task/%1/children").arg(pid)))
                     .split(u' ', Qt::SkipEmptyParts)
                     .value(0)
                     .toLongLong()) > 0,
            10000);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1").arg(child)));
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        QVERIFY(sweep.waitForFinished(5000));
        // The isolated server goes with it (PR_SET_PDEATHSIG): gone, or a zombie being reaped.
        QTRY_VERIFY_WITH_TIMEOUT(
            !QFile::exists(QStringLiteral("/proc/%1").arg(child)) ||
                readFile(QStringLiteral("/proc/%1/stat").arg(child)).contains(") Z "),
            5000);
    }

    // Any process's timeline, one row per 100 ms, and what watching it cost.
    void watchSamplesAProcess()
    {
        ChildProcess sleeper;
        // A process to watch, killed below: it must outlive the watch however slow the start.
        sleeper.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(sleeper.waitForStarted());
        const Run run = runCli({QStringLiteral("watch"), QString::number(sleeper.processId()),
                                QStringLiteral("-d"), QStringLiteral("1")});
        sleeper.kill();
        sleeper.waitForFinished();
        QCOMPARE(run.code, 0);
        const QStringList rows = run.out.trimmed().split(u'\n');
        QCOMPARE(rows.first(), QStringLiteral("t_s,fds,sockets,files,pipes,anon_inodes,other_fds,"
                                              "fd_limit,threads,rss_kib,cpu_user_pct,cpu_sys_pct,"
                                              "processes"));
        QVERIFY2(rows.size() >= 9 && rows.size() <= 13, qPrintable(run.out));
        QVERIFY2(
            QRegularExpression(QStringLiteral("^\\d+\\.\\d{3},\\d+,")).match(rows[1]).hasMatch(),
            qPrintable(rows[1]));
        QVERIFY2(run.err.contains(QStringLiteral("% of a core")), qPrintable(run.err));

        const Run missing = runCli({QStringLiteral("watch"), QStringLiteral("999999999")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("/proc/999999999/fd")),
                 qPrintable(missing.err));
    }

    void presetsAreListed()
    {
        const Run run = runCli({QStringLiteral("presets")});
        QCOMPARE(run.code, 0);
        QVERIFY2(
            run.out.contains(QStringLiteral("seed001-httpd-vs-tomcat\tseed 001: Apache httpd")),
            qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("ab-c300-maxthreads\t")));
    }

    // An experiment from a spec file: every target and size, repeated, kept and written out.
    void runWritesEverything()
    {
        QTemporaryDir dir;
        const QString specFile = dir.filePath(QStringLiteral("two.json"));
        QFile spec(specFile);
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(R"({"servelab": 1, "name": "two targets",
  "targets": [{"builtin": "epoll+sendfile"}, {"builtin": "blocking+copy", "threads": 2}],
  "sizes": ["4K", "8K"], "client": {"requests": 10, "concurrency": 2}, "repetitions": 2})");
        spec.close();
        const QString out = dir.filePath(QStringLiteral("out"));
        const QString db = dir.filePath(QStringLiteral("r.db"));
        const Run run = runCli({QStringLiteral("run"), specFile, QStringLiteral("--out"), out,
                                QStringLiteral("--db"), db});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(QStringLiteral("epoll+sendfile")));
        QVERIFY(run.out.contains(QStringLiteral("blocking+copy")));
        const auto read = [&](const char *name) {
            QFile f(QDir(out).filePath(QString::fromLatin1(name)));
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        const auto results = csvrows::parse(read("results.csv"));
        QCOMPARE(results.size(), 1 + 4); // one row per target and size
        QVERIFY(results[0].contains(QStringLiteral("kib_per_s_ci95_low")));
        for (const QStringList &f : results.mid(1)) {
            QCOMPARE(f.size(), results[0].size());
            QCOMPARE(f[3], QStringLiteral("ok"));
            QCOMPARE(f[4], QStringLiteral("2")); // repetitions
            QVERIFY(f[5].toDouble() > 0);
            QVERIFY(f[7].toDouble() <= f[5].toDouble() && f[8].toDouble() >= f[5].toDouble());
            QCOMPARE(f[12], QStringLiteral("20")); // requests over both repetitions
        }
        QCOMPARE(read("runs.csv").trimmed().count(u'\n'), 8);
        QVERIFY(read("table.tsv")
                    .startsWith(
                        QStringLiteral("File Size (KiB/s)\tepoll+sendfile\tblocking+copy\n4K\t")));
        QVERIFY(read("samples.csv").startsWith(QStringLiteral("point,size_bytes,target,t_s,")));
        QVERIFY(read("spec.json").contains(QStringLiteral("\"repetitions\": 2")));
        QVERIFY(read("spec.json").contains(QStringLiteral("\"timeout_ms\": 30000"))); // filled in
        // Each point's histogram, tagged, as HdrHistogram reads it; the whole run as a bundle
        // that another database imports.
        QCOMPARE(read("latency.hlog").count(QStringLiteral("\nTag=p")), 8);
        QVERIFY(read("latency.hlog").contains(QStringLiteral("Tag=p0_epoll+sendfile_4K_r1,")));
        const QString other = dir.filePath(QStringLiteral("other.db"));
        const Run imported =
            runCli({QStringLiteral("import"), QDir(out).filePath(QStringLiteral("bundle.json")),
                    QStringLiteral("--db"), other});
        QVERIFY2(imported.code == 0, qPrintable(imported.err));
        QVERIFY(imported.out.startsWith(QStringLiteral("imported 8 points as experiment 1")));
        {
            lab::ResultStore copy;
            QString why;
            QVERIFY(copy.open(other, &why));
            QCOMPARE(copy.experiments()[0].name, QStringLiteral("two targets (imported)"));
            QCOMPARE(copy.experiments()[0].points, 8);
            QCOMPARE(copy.experiments()[0].machine.value(QStringLiteral("cores")).toInt(),
                     int(sysconf(_SC_NPROCESSORS_ONLN)));
            const auto points = copy.points(copy.experiments()[0].id);
            QCOMPARE(points[3].load.ok, 10u);
        }
        QCOMPARE(runCli({QStringLiteral("import"), specFile, QStringLiteral("--db"), other}).code,
                 2);
        // The charts, drawn without a display.
        for (const char *chart : {"throughput.png", "fds.png"}) {
            QImage image(QDir(out).filePath(QString::fromLatin1(chart)));
            QVERIFY2(!image.isNull() && image.width() >= 1000, chart);
        }
        lab::ResultStore store;
        QString error;
        QVERIFY(store.open(db, &error));
        QCOMPARE(store.experiments().size(), 1);
        QCOMPARE(store.experiments()[0].name, QStringLiteral("two targets"));
        QCOMPARE(store.experiments()[0].status, servelab::lab::RunStatus::Done);
        QCOMPARE(store.experiments()[0].points, 8);
    }

    // Each preset runs in its smoke version; targets missing here are DNF, not a failure.
    void presetsRunInSmokeVersion_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("ab -c 300 -k, 150 vs 350 threads") << QStringLiteral("ab-c300-maxthreads");
        QTest::newRow("httpd vs Tomcat") << QStringLiteral("seed001-httpd-vs-tomcat");
        QTest::newRow("grizzly Simple vs Equal") << QStringLiteral("grizzly-simple-vs-equal");
        QTest::newRow("sendfile threshold") << QStringLiteral("sendfile-threshold");
        QTest::newRow("poller hand-off") << QStringLiteral("poller-handoff");
        QTest::newRow("ulimit 1024") << QStringLiteral("ulimit-1024");
        QTest::newRow("latency vs load") << QStringLiteral("latency-vs-load");
        QTest::newRow("seed 002 realistic") << QStringLiteral("seed002-realistic-keepalive");
        QTest::newRow("seed 003 faban and ab") << QStringLiteral("seed003-grizzly-faban");
        QTest::newRow("the strategies side by side") << QStringLiteral("strategies");
        QTest::newRow("seed 003 tuned under load") << QStringLiteral("seed003-live-tuning");
        QTest::newRow("seed 004 over https") << QStringLiteral("seed004-https-wrk");
        QTest::newRow("TLS by size") << QStringLiteral("tls-by-size");
        QTest::newRow("h1 vs h2") << QStringLiteral("h1-vs-h2");
    }
    void presetsRunInSmokeVersion()
    {
        QFETCH(QString, preset);
        QTemporaryDir dir;
        const Run run = runCli({QStringLiteral("run"), preset, QStringLiteral("--smoke"),
                                QStringLiteral("--out"), dir.path(), QStringLiteral("--db"),
                                dir.filePath(QStringLiteral("r.db"))},
                               180000);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QFile results(dir.filePath(QStringLiteral("results.csv")));
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(results.readAll()).trimmed().split(u'\n');
        QVERIFY(rows.size() >= 3);
        // A CSV row's fields; a quoted one may hold commas ("tomcat (NIO, useSendfile=true)").
        const auto fields = [](const QString &row) {
            QStringList out{QString()};
            bool quoted = false;
            for (const QChar c : row) {
                if (c == u'"')
                    quoted = !quoted;
                else if (c == u',' && !quoted)
                    out << QString();
                else
                    out.last() += c;
            }
            return out;
        };
        const QStringList header = fields(rows[0]);
        // Every row whose target starts with `target`: the value of `column` in each.
        const auto values = [&](const QString &target, const char *column) {
            const qsizetype at = header.indexOf(QLatin1StringView(column));
            const qsizetype targetAt = header.indexOf(QStringLiteral("target"));
            QList<double> out;
            for (const QString &row : rows.mid(1))
                if (const QStringList f = fields(row); f.value(targetAt).startsWith(target))
                    out << f.value(at).toDouble();
            return out;
        };
        const auto all = [](const QList<double> &list, auto pass) {
            return !list.isEmpty() && std::all_of(list.begin(), list.end(), pass);
        };
        const auto positive = [](double v) { return v > 0; };
        if (preset == u"sendfile-threshold")
            QVERIFY2(run.out.contains(QStringLiteral("epoll+sendfile sendfile-threshold=1")) &&
                         run.out.contains(QStringLiteral("epoll+sendfile sendfile-threshold=1M")),
                     qPrintable(run.out));
        if (preset == u"poller-handoff") // wrk's model, and the hand-off wait the server counted
            QVERIFY2(all(values(QStringLiteral("poller"), "handoff_wait_mean_us"), positive),
                     qPrintable(rows.join(u'\n')));
        if (preset == u"strategies") // the welcome page's comparison: every strategy a column,
            // and nginx (installed on every leg)
            for (const char *column :
                 {"blocking+copy", "poller+copy", "poller+sendfile", "epoll+sendfile", "nginx"})
                QVERIFY2(all(values(QLatin1StringView(column), "kib_per_s"), positive),
                         qPrintable(rows.join(u'\n')));
        if (preset == u"ulimit-1024") { // more clients than descriptors, smaller: the flood
            QVERIFY2(run.out.contains(
                         QStringLiteral("(accept-strategy=none max-connections=unlimited)")) &&
                         run.out.contains(QStringLiteral("(open-file-cache=1000)")) &&
                         run.out.contains(QStringLiteral("(defaults)")),
                     qPrintable(run.out));
            // QTest cuts a message at 1 KiB: on failure the whole CSV goes to the log first.
            const bool flooded =
                all(values(QStringLiteral("epoll+sendfile (accept-strategy=none"), "server_emfile"),
                    positive);
            if (!flooded)
                qWarning().noquote() << rows.join(u'\n');
            QVERIFY2(flooded, "a flooded row without EMFILE: the rows are in the log above");
        }
        if (preset == u"ab-c300-maxthreads" || preset == u"seed002-realistic-keepalive") {
            // More kept-alive clients than threads, smaller: the clients past the threads wait
            // for the keep-alive timeout (5 s), so the fewer threads' worst latency is seconds.
            const QString fewer = preset == u"ab-c300-maxthreads"
                                      ? QStringLiteral("blocking+copy (15 threads)")
                                      : QStringLiteral("blocking+copy ab -k (15 threads)");
            QVERIFY2(run.out.contains(fewer) &&
                         run.out.contains(QStringLiteral("blocking+copy") +
                                          (preset == u"ab-c300-maxthreads"
                                               ? QStringLiteral(" (35 threads)")
                                               : QStringLiteral(" realistic (35 threads)"))),
                     qPrintable(run.out));
            QVERIFY2(all(values(fewer, "latency_max_ms"), [](double ms) { return ms > 4000; }),
                     qPrintable(rows.join(u'\n')));
        }
        if (preset == u"seed001-httpd-vs-tomcat") {
            // Apache's column has numbers as root too, and Tomcat's two NIO columns wherever
            // tomcat10 is installed (the Debian 12 leg of packaging/test.sh installs it).
            for (const QString &server : {QStringLiteral("apache"), QStringLiteral("tomcat")})
                if (!lab::ServerTemplate::binaryFor(server).isEmpty())
                    QVERIFY2(all(values(server, "kib_per_s"), positive),
                             qPrintable(rows.join(u'\n')));
            for (const char *analogue :
                 {"blocking+copy (Coyote BIO's analogue)", "poller+copy (Coyote APR's analogue)",
                  "poller+sendfile (APR-sendfile's analogue)"})
                QVERIFY2(all(values(QLatin1StringView(analogue), "kib_per_s"), positive),
                         qPrintable(rows.join(u'\n')));
        }
        if (preset == u"grizzly-simple-vs-equal") // both of grizzly's algorithms measured
            for (const char *column : {"blocking+copy", "multiplex+copy"})
                QVERIFY2(all(values(QLatin1StringView(column), "kib_per_s"), positive),
                         qPrintable(rows.join(u'\n')));
        if (preset == u"latency-vs-load") // every target at three offered rates, and the chart
            QVERIFY2(run.out.contains(QStringLiteral("blocking+copy R=40000")) &&
                         QFile::exists(dir.filePath(QStringLiteral("latency-load.png"))),
                     qPrintable(run.out));
        if (preset == u"seed003-live-tuning") { // each point's change made halfway, and kept
            QFile runs(dir.filePath(QStringLiteral("runs.csv")));
            QVERIFY(runs.open(QIODevice::ReadOnly));
            const QString all = QString::fromUtf8(runs.readAll());
            QVERIFY2(all.count(QRegularExpression(
                         QStringLiteral("tuned: threads=8 at 0\\.[4-9]"))) == 1 &&
                         all.count(QStringLiteral("tuned: threads=50 at ")) == 1,
                     qPrintable(all));
        }
        // Each point's handshakes, from runs.csv: every row of `target` made some.
        const auto shookHands = [&](const QString &target) {
            QFile runs(dir.filePath(QStringLiteral("runs.csv")));
            if (!runs.open(QIODevice::ReadOnly))
                return false;
            const QStringList lines = QString::fromUtf8(runs.readAll()).trimmed().split(u'\n');
            const QStringList names = fields(lines.value(0));
            const qsizetype targetAt = names.indexOf(QStringLiteral("target"));
            const qsizetype at = names.indexOf(QStringLiteral("tls_handshakes"));
            int rowsOf = 0;
            for (const QString &line : lines.mid(1)) {
                const QStringList f = fields(line);
                if (f.value(targetAt) != target)
                    continue;
                ++rowsOf;
                if (f.value(at).toLongLong() <= 0)
                    return false;
            }
            return rowsOf > 0;
        };
        if (preset == u"tls-by-size") { // userspace TLS measured; kernel TLS or its reason
            QVERIFY2(all(values(QStringLiteral("epoll+copy https"), "kib_per_s"), positive) &&
                         shookHands(QStringLiteral("epoll+copy https")),
                     qPrintable(rows.join(u'\n')));
            if (!tls::TlsServerContext::kernelTlsMissing().empty())
                QVERIFY2(run.err.contains(QStringLiteral("DNF, servelab-cli serve: sendfile over "
                                                         "https needs kernel TLS")),
                         qPrintable(run.err));
            else
                QVERIFY2(all(values(QStringLiteral("epoll+sendfile https"), "kib_per_s"), positive),
                         qPrintable(rows.join(u'\n')));
        }
        if (preset == u"h1-vs-h2") { // h2c spoken by both sides, the protocol kept, the tax drawn
            for (const char *target : {"epoll+sendfile h2c", "epoll+mmap h2c", "epoll+copy h2c"})
                QVERIFY2(all(values(QLatin1StringView(target), "server_h2_streams"), positive) &&
                             all(values(QLatin1StringView(target), "kib_per_s"), positive),
                         qPrintable(rows.join(u'\n')));
            QVERIFY2(all(values(QStringLiteral("nginx h2c"), "kib_per_s"), positive),
                     qPrintable(rows.join(u'\n')));
            QVERIFY(QFile::exists(dir.filePath(QStringLiteral("h2-tax.png"))));
            QFile runs(dir.filePath(QStringLiteral("runs.csv")));
            QVERIFY(runs.open(QIODevice::ReadOnly));
            const QStringList lines = QString::fromUtf8(runs.readAll()).trimmed().split(u'\n');
            const QStringList names = fields(lines.value(0));
            const qsizetype targetAt = names.indexOf(QStringLiteral("target"));
            const qsizetype protocolAt = names.indexOf(QStringLiteral("protocol"));
            QVERIFY(protocolAt > 0);
            for (const QString &line : lines.mid(1)) {
                const QStringList f = fields(line);
                QCOMPARE(f.value(protocolAt), f.value(targetAt).endsWith(QStringLiteral(" h2c"))
                                                  ? QStringLiteral("h2c")
                                                  : QStringLiteral("http/1.1"));
            }
        }
        if (preset == u"seed004-https-wrk") // both queues over https, one handshake per connection
            for (const char *column : {"handoff=mutex https", "handoff=lockfree https"})
                QVERIFY2(shookHands(QStringLiteral("poller+copy ") + QLatin1String(column)),
                         qPrintable(rows.join(u'\n')));
        if (preset == u"seed003-grizzly-faban") { // faban's ramp and ab, one experiment
            QVERIFY2(run.out.contains(QStringLiteral("multiplex+copy fhb")) &&
                         run.out.contains(QStringLiteral("multiplex+copy ab")),
                     qPrintable(run.out));
            QVERIFY(rows.join(u'\n').contains(QStringLiteral("copy fhb")));
        }
    }

    void runRefusesBadInputAndWritesNothing_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("out");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("bad spec") << QByteArray(
                                         "{\"servelab\": 1,\n \"targets\": [],\n \"client\": "
                                         "{\"requests\": -1}}")
                                  << QString() << 2 << QStringLiteral("spec.json:2:13: targets:");
        QTest::newRow("unknown preset")
            << QByteArray() << QString() << 2 << QStringLiteral("neither a spec file nor a preset");
        QTest::newRow("unwritable out")
            << QByteArray("{\"servelab\": 1, \"targets\": [{\"builtin\": \"epoll+copy\"}]}")
            << QStringLiteral("/proc/servelab-out") << 2
            << QStringLiteral("cannot write into --out");
        QTest::newRow("bad server option value")
            << QByteArray("{\"servelab\": 1, \"targets\": [{\"builtin\": \"epoll+copy\", "
                          "\"options\": {\"chunk\": \"lots\"}}]}")
            << QString() << 2 << QStringLiteral("targets[0]: --chunk wants a size");
        QTest::newRow("not a database")
            << QByteArray("{\"servelab\": 1, \"targets\": [{\"builtin\": \"epoll+copy\"}]}")
            << QString() << 1 << QStringLiteral("not a readable SQLite database");
    }
    void runRefusesBadInputAndWritesNothing()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QString, out);
        QFETCH(int, code);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        QString source = QStringLiteral("no-such-preset");
        if (!spec.isEmpty()) {
            source = dir.filePath(QStringLiteral("spec.json"));
            QFile f(source);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(spec);
        }
        const QString db = dir.filePath(QStringLiteral("notes.db"));
        QFile notes(db);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write(QByteArray("my notes, not a database\n").repeated(100));
        notes.close();
        if (out.isEmpty())
            out = dir.filePath(QStringLiteral("out"));
        const Run run = runCli({QStringLiteral("run"), source, QStringLiteral("--out"), out,
                                QStringLiteral("--db"), db});
        QCOMPARE(run.code, code);
        QVERIFY2(run.err.contains(mentions), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
        // Nothing half-written: no result files, and the file that was not ours is untouched.
        QVERIFY(!QFile::exists(QDir(out).filePath(QStringLiteral("results.csv"))));
        QVERIFY(notes.open(QIODevice::ReadOnly));
        QCOMPARE(notes.readAll(), QByteArray("my notes, not a database\n").repeated(100));
    }

    // kill -9 in the middle of a sweep: the database opens, the experiment says interrupted,
    // and every point it holds is whole.
    void killedSweepLeavesTheDatabaseConsistent()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        ChildProcess sweep;
        sweep.start(QStringLiteral(SERVELAB_CLI),
                    {QStringLiteral("sweep"), QStringLiteral("--sizes"),
                     QStringLiteral("4K,8K,16K,32K,64K,128K"), QStringLiteral("-n"),
                     QStringLiteral("20000"), QStringLiteral("--root"),
                     dir.filePath(QStringLiteral("root")), QStringLiteral("--db"), db});
        QVERIFY(sweep.waitForStarted());
        lab::ResultStore watcher;
        QString error;
        const auto sweepEnded = [&] { return sweep.state() == QProcess::NotRunning; };
        const auto sweepSaid = [&] {
            return QStringLiteral("the sweep ended: %1")
                .arg(QString::fromUtf8(sweep.readAllStandardError()));
        };
        QTRY_VERIFY_WITH_TIMEOUT(
            sweepEnded() || (QFile::exists(db) && (watcher.isOpen() || watcher.open(db, &error))),
            10000);
        QVERIFY2(!sweepEnded(), qPrintable(sweepSaid()));
        // Bounded, not timed: a point of 20,000 requests under ASan, beside three other tests
        // on two cores, once took longer than 30 s. A sweep that ended is said at once.
        QTRY_VERIFY_WITH_TIMEOUT(sweepEnded() || (!watcher.experiments().isEmpty() &&
                                                  watcher.experiments().first().points >= 1),
                                 120000);
        QVERIFY2(!sweepEnded(), qPrintable(sweepSaid()));
        QCOMPARE(watcher.experiments().first().status, servelab::lab::RunStatus::Running);
        ::kill(static_cast<pid_t>(sweep.processId()), SIGKILL);
        QVERIFY(sweep.waitForFinished(5000));

        lab::ResultStore store;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        const auto experiments = store.experiments();
        QCOMPARE(experiments.size(), 1);
        QCOMPARE(experiments[0].status, servelab::lab::RunStatus::Interrupted);
        QVERIFY(experiments[0].points >= 1 && experiments[0].points < 6);
        for (const auto &p : store.points(experiments[0].id)) {
            QCOMPARE(p.load.completed, 20000u);
            QCOMPARE(p.load.latency.count(), p.load.ok +
                                                 p.load.errorCount(client::ErrorKind::Status4xx) +
                                                 p.load.errorCount(client::ErrorKind::Status5xx));
            std::uint64_t sampled = 0;
            for (const auto &s : p.clientSamples)
                sampled += s.completed;
            QCOMPARE(sampled, 20000u);
        }
    }

    // Ctrl-C during `run`: the point being measured stops, the experiment is kept as cancelled
    // with what was measured, --out gets nothing half-done, no server is left, exit 1.
    void interruptedRunIsCancelledCleanly()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        const QString out = dir.filePath(QStringLiteral("out"));
        QFile spec(dir.filePath(QStringLiteral("long.json")));
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(QStringLiteral(R"({"servelab": 1, "name": "long",
            "targets": [{"builtin": "epoll+copy", "isolated": true}], "sizes": ["4K", "8K"],
            "document_root": "%1", "client": {"requests": 100000000, "keep_alive": true},
            "repetitions": 5})")
                       .arg(dir.filePath(QStringLiteral("root")))
                       .toUtf8());
        spec.close();
        ChildProcess run;
        run.start(QStringLiteral(SERVELAB_CLI),
                  {QStringLiteral("run"), spec.fileName(), QStringLiteral("--db"), db,
                   QStringLiteral("--out"), out});
        QVERIFY(run.waitForStarted());
        QString err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += QString::fromUtf8(run.readAllStandardError())).contains(u"10 points"), 20000);
        // Into the first point, however long the server's start takes here: its client has
        // connected (the point starts before its warm-up, so this is inside it). Kept alive,
        // so that the connection is there to be seen: without keep-alive each request's connection
        // lives a few microseconds, and under load a 50 ms poll missed every one of them for 30 s.
        // Once seen, it stays seen: the server closes a kept-alive connection every
        // --max-requests (1000) requests, and the look that QTRY_VERIFY2 takes again after the
        // one that passed may fall between two of them.
        bool seen = false;
        const auto serving = [&] {
            return seen = seen || !childConnections(run.processId()).isEmpty();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            serving(),
            qPrintable(QStringLiteral("children %1; stderr: %2")
                           .arg(QString::number(childrenOf(run.processId()).size()),
                                err + QString::fromUtf8(run.readAllStandardError()))),
            30000);
        ::kill(static_cast<pid_t>(run.processId()), SIGINT);
        QVERIFY(run.waitForFinished(10000));
        err += QString::fromUtf8(run.readAllStandardError());
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QCOMPARE(run.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("run: cancelled after 1 of 10 points; nothing "
                                             "written to --out; the points measured are kept "
                                             "as experiment 1 in ")),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("[1/10] epoll+copy, 4K, repetition 1: DNF, "
                                             "cancelled")),
                 qPrintable(err));
        QVERIFY(QDir(out).isEmpty());
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        QCOMPARE(store.experiments().value(0).status, servelab::lab::RunStatus::Cancelled);
        QCOMPARE(store.experiments().value(0).points, 1);
        // The isolated server went with it.
        QProcess pgrep;
        pgrep.start(QStringLiteral("pgrep"),
                    {QStringLiteral("-f"), dir.filePath(QStringLiteral("root"))});
        pgrep.waitForFinished();
        QCOMPARE(pgrep.readAllStandardOutput(), QByteArray());
    }

    // A target that cannot start is DNF at every size (as in `run`), and the reason is said
    // once more at the end; the sweep exits 1.
    void sweepOfATargetThatCannotStartSaysWhy()
    {
        QTemporaryDir dir;
        const Run run = runCli({QStringLiteral("sweep"), QStringLiteral("--target"),
                                QStringLiteral("command:/bin/false {port}"),
                                QStringLiteral("--sizes"), QStringLiteral("4K,8K"),
                                QStringLiteral("-n"), QStringLiteral("5"), QStringLiteral("--root"),
                                dir.filePath(QStringLiteral("root")), QStringLiteral("--no-db")});
        QCOMPARE(run.code, 1);
        QCOMPARE(run.err.count(QStringLiteral(": DNF, false exited before listening")), 2);
        QVERIFY2(run.err.trimmed().split(u'\n').last().startsWith(
                     QStringLiteral("servelab-cli sweep: false exited before listening")),
                 qPrintable(run.err));
        QVERIFY(run.out.contains(QStringLiteral("DNF")));
    }

    void sweepPrintsTheSeedTable()
    {
        QTemporaryDir out;
        const QString csv = out.filePath(QStringLiteral("results.csv"));
        const QString tsv = out.filePath(QStringLiteral("table.tsv"));
        const QString samples = out.filePath(QStringLiteral("samples.csv"));
        const QString db = out.filePath(QStringLiteral("results.db"));
        const Run run =
            runCli({QStringLiteral("sweep"), QStringLiteral("--sizes"), QStringLiteral("4K,64K"),
                    QStringLiteral("-n"), QStringLiteral("20"), QStringLiteral("--root"),
                    out.filePath(QStringLiteral("root")), QStringLiteral("--csv"), csv,
                    QStringLiteral("--tsv"), tsv, QStringLiteral("--samples"), samples,
                    QStringLiteral("--db"), db});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.err.contains(QStringLiteral("kept as experiment 1 in ") + db),
                 qPrintable(run.err));
        {
            lab::ResultStore store;
            QString error;
            QVERIFY2(store.open(db, &error), qPrintable(error));
            const auto experiments = store.experiments();
            QCOMPARE(experiments.size(), 1);
            QCOMPARE(experiments[0].status, servelab::lab::RunStatus::Done);
            QCOMPARE(experiments[0].points, 2);
            QVERIFY(experiments[0].spec.contains("\"servelab\": 1"));
            const auto points = store.points(experiments[0].id);
            QCOMPARE(points[1].sizeBytes, 65536u);
            QCOMPARE(points[1].load.ok, 20u);
            QVERIFY(!points[1].serverSamples.empty());
        }
        QFile samplesFile(samples);
        QVERIFY(samplesFile.open(QIODevice::ReadOnly));
        const QByteArray timeline = samplesFile.readAll();
        QVERIFY(timeline.startsWith("point,size_bytes,target,t_s,"));
        QVERIFY(timeline.contains("\n1,65536,epoll+sendfile,"));
        const auto lines = run.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith(QStringLiteral("File Size")));
        QVERIFY(lines[0].contains(QStringLiteral("epoll+sendfile")));
        QVERIFY(
            QRegularExpression(QStringLiteral("^4K\\s+\\d+\\.\\d\\d$")).match(lines[2]).hasMatch());
        QVERIFY(QRegularExpression(QStringLiteral("^64K\\s+\\d+\\.\\d\\d$"))
                    .match(lines[3])
                    .hasMatch());
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().count('\n'), 3);
        QFile tsvFile(tsv);
        QVERIFY(tsvFile.open(QIODevice::ReadOnly));
        QVERIFY(tsvFile.readAll().startsWith("File Size (KiB/s)\tepoll+sendfile\n4K\t"));
    }
};

QTEST_GUILESS_MAIN(TestServelabCli)
#include "tst_servelabcli.moc"
