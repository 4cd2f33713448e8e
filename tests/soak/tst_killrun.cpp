// SPDX-License-Identifier: Apache-2.0
// Soak: `servelab-cli run --out DIR` killed with SIGKILL at a random moment, 20 times, into one
// database. Each time: the database passes PRAGMA integrity_check, the experiment reads as
// interrupted (or done, when the kill came after the end), every file in DIR is whole (no
// half-written export, no temporary file left), and no server the run started outlives it.
// The moments are random fractions of how long a run takes on this machine (the first run is
// left to end, to measure it); the seed is printed (SOAK_SEED=N repeats a sequence of them).

#include "childprocess.h"
#include "lab/results/resultstore.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace servelab;

namespace {

// Processes whose command line mentions `text` (a folder only this iteration uses).
QList<qint64> processesMentioning(const QString &text)
{
    QList<qint64> found;
    const QByteArray needle = text.toUtf8();
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        it.next();
        bool isPid = false;
        const qint64 pid = it.fileName().toLongLong(&isPid);
        if (!isPid || pid == QCoreApplication::applicationPid())
            continue;
        QFile cmdline(it.filePath() + QStringLiteral("/cmdline"));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(needle))
            found << pid;
    }
    return found;
}

// Why this export file is not whole; empty when it is.
QString incompleteness(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot be read");
    const QByteArray bytes = file.readAll();
    const QString name = QFileInfo(path).fileName();
    if (name.endsWith(u".json"))
        return QJsonDocument::fromJson(bytes).isObject() ? QString()
                                                         : QStringLiteral("is not whole JSON");
    if (name.endsWith(u".png"))
        return QImage::fromData(bytes, "PNG").isNull() ? QStringLiteral("is not a whole PNG")
                                                       : QString();
    if (name.endsWith(u".svg"))
        return bytes.trimmed().endsWith("</svg>") ? QString() : QStringLiteral("is cut short");
    if (name.endsWith(u".csv") || name.endsWith(u".tsv") || name.endsWith(u".hlog"))
        return !bytes.isEmpty() && bytes.endsWith('\n') ? QString()
                                                        : QStringLiteral("is cut short");
    return QStringLiteral("is not an export file (a temporary file left behind?)");
}

} // namespace

class TestKillRun : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_spec;

private Q_SLOTS:
    void initTestCase()
    {
        // About 2.5 s here: an isolated server (a process of its own, to check for orphans), three
        // sizes, two repetitions, samples every 100 ms.
        m_spec = m_dir.filePath(QStringLiteral("spec.json"));
        QFile file(m_spec);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"servelab": 1, "name": "soak: killed at random",
 "targets": [{"builtin": "epoll+sendfile", "threads": 1, "isolated": true}],
 "sizes": ["4K", "64K", "1M"],
 "client": {"model": "closed", "requests": 2000, "concurrency": 2, "keep_alive": true},
 "repetitions": 2})");
    }

    void killedAtRandomMoments()
    {
        const quint32 seed = qEnvironmentVariableIsSet("SOAK_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("SOAK_SEED"))
                                 : QRandomGenerator::global()->generate();
        qInfo("SOAK_SEED=%u", seed);
        QRandomGenerator random(seed);
        const QString database = m_dir.filePath(QStringLiteral("killed.db"));
        int interrupted = 0, done = 0, beforeRecording = 0, kills = 0, finished = 0;
        // How long the last run that ended by itself took (0: none yet). The moments are drawn
        // over it and a little beyond, so some land while the exports are written and a few
        // runs end first, on a fast machine as on a loaded one.
        qint64 runMs = 0;
        // Until 20 kills have landed (a run may end before its moment: counted, not a kill).
        for (int i = 0; kills < 20 && i < 40; ++i) {
            // Each iteration's own cache (where the document root is generated) and --out: a
            // server of this iteration names them on its command line.
            const QString own = m_dir.filePath(QStringLiteral("run-%1").arg(i));
            const QString out = own + QStringLiteral("/out");
            auto environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("XDG_CACHE_HOME"), own + QStringLiteral("/cache"));
            ChildProcess run;
            run.setProcessEnvironment(environment);
            run.start(QStringLiteral(SERVELAB_CLI),
                      {QStringLiteral("run"), m_spec, QStringLiteral("--db"), database,
                       QStringLiteral("--out"), out});
            QVERIFY(run.waitForStarted(10000));
            QElapsedTimer clock;
            clock.start();
            const double at = random.bounded(1.1);
            const int delayMs = runMs > 0 ? 50 + int(at * double(runMs)) : 300'000;
            const bool ended = run.waitForFinished(delayMs);
            QVERIFY2(ended || runMs > 0, "the first run did not end within 5 minutes");
            if (!ended)
                ::kill(pid_t(run.processId()), SIGKILL);
            if (run.state() != QProcess::NotRunning)
                QVERIFY2(run.waitForFinished(10000), qPrintable(run.errorString()));
            const bool killed = run.exitStatus() == QProcess::CrashExit;
            QVERIFY2(killed || run.exitCode() == 0, run.readAllStandardError().constData());
            ++(killed ? kills : finished);
            if (!killed)
                runMs = clock.elapsed();

            // No server of this run is left.
            QTRY_VERIFY2_WITH_TIMEOUT(processesMentioning(own).isEmpty(),
                                      "a server outlived the run that started it", 10000);

            // The database is sound and says what happened.
            {
                auto db =
                    QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
                db.setDatabaseName(database);
                QVERIFY(db.open());
                QSqlQuery q(db);
                QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
                QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
            }
            QSqlDatabase::removeDatabase(QStringLiteral("check"));
            lab::ResultStore store; // opening marks the dead process's experiment interrupted
            QString error;
            QVERIFY2(store.open(database, &error), qPrintable(error));
            const auto experiments = store.experiments(&error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(experiments.size() >= interrupted + done);
            QString status = QStringLiteral("(not recorded yet)");
            if (experiments.size() > interrupted + done) {
                status = lab::runStatusText(experiments.last().status); // oldest first
                for (const auto &e : experiments)
                    QVERIFY2(e.status == lab::RunStatus::Interrupted ||
                                 e.status == lab::RunStatus::Done,
                             qPrintable(lab::runStatusText(e.status)));
            } else {
                QVERIFY(killed);
                ++beforeRecording;
            }
            if (status == u"done") {
                ++done;
            } else if (status == u"interrupted") {
                QVERIFY2(killed, "a run that ended by itself reads as interrupted");
                ++interrupted;
            }
            qInfo("run %d: %s after %lld ms: %s", i + 1, killed ? "killed" : "ended by itself",
                  static_cast<long long>(killed ? delayMs : runMs), qPrintable(status));

            // Every file in --out is whole, whatever moment the kill came.
            QDirIterator files(out, QDir::Files | QDir::Hidden);
            QStringList present;
            while (files.hasNext()) {
                const QString path = files.next();
                present << files.fileName();
                const QString why = incompleteness(path);
                QVERIFY2(why.isEmpty(), qPrintable(path + u' ' + why));
            }
            if (status == u"done" && !killed)
                QVERIFY2(present.contains(QStringLiteral("bundle.json")),
                         qPrintable(present.join(u' ')));
        }
        qInfo("%d kills: %d mid-run (interrupted), %d after the experiment was done (writing "
              "the exports), %d before it was recorded; %d runs ended by themselves first",
              kills, interrupted, done - finished, beforeRecording, finished);
        QCOMPARE(kills, 20);
        QVERIFY2(interrupted >= 5, "too few kills landed mid-run to mean anything");
    }
};

QTEST_GUILESS_MAIN(TestKillRun)
#include "tst_killrun.moc"
