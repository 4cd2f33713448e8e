// SPDX-License-Identifier: Apache-2.0
#include "lab/results/resultstore.h"
#include "samplepoint.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace servelab;
using client::ErrorKind;
using servelab::testing::samplePoint;

class TestResultStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsEverythingOfAPoint()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/folder/results.db"));
        qint64 id = 0;
        {
            lab::ResultStore store;
            QString error;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            QCOMPARE(store.version(), lab::ResultStore::schemaVersion);
            id = store.beginExperiment(QStringLiteral("seed 001"), "{\"servelab\": 1}", &error);
            QVERIFY2(id > 0, qPrintable(error));
            QVERIFY2(store.addPoint(id, samplePoint(0), &error), qPrintable(error));
            QVERIFY2(store.addPoint(id, samplePoint(1), &error), qPrintable(error));
            QVERIFY2(store.finishExperiment(id, servelab::lab::RunStatus::Done, &error),
                     qPrintable(error));
        }
        lab::ResultStore store; // a fresh connection reads it all back
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        const auto experiments = store.experiments();
        QCOMPARE(experiments.size(), 1);
        QCOMPARE(experiments[0].id, id);
        QCOMPARE(experiments[0].name, QStringLiteral("seed 001"));
        QCOMPARE(experiments[0].status, servelab::lab::RunStatus::Done);
        QCOMPARE(experiments[0].spec, QByteArray("{\"servelab\": 1}"));
        QCOMPARE(experiments[0].points, 2);
        QVERIFY(experiments[0].finished >= experiments[0].started);

        const auto points = store.points(id);
        QCOMPARE(points.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const auto want = samplePoint(i);
            const auto &got = points[i];
            QCOMPARE(got.index, i);
            QCOMPARE(got.repetition, i * 2);
            QCOMPARE(got.serverCounted, i == 1);
            QCOMPARE(got.server.requests, 100u);
            QCOMPARE(got.server.acceptEmfile, 3u);
            QCOMPARE(got.server.handoffs, 250u);
            QCOMPARE(got.server.handoffWaitMicros, 12345u);
            QVERIFY(testing::sameCost(got, want));    // what it cost and what limited it
            QVERIFY(testing::sameProfile(got, want)); // and its profile
            QVERIFY(testing::sameAgents(got, want));  // and its load agents
            QCOMPARE(got.sizeBytes, want.sizeBytes);
            QCOMPARE(got.target, want.target);
            QCOMPARE(got.reason, want.reason);
            QCOMPARE(got.load.completed, 100u);
            QCOMPARE(got.load.ok, 98u);
            QCOMPARE(got.load.errorCount(ErrorKind::Reset), 2u);
            QCOMPARE(got.load.failed(), 2u);
            QCOMPARE(got.load.bytesRead, want.load.bytesRead);
            QCOMPARE(got.load.elapsedMicros, 250'000);
            QCOMPARE(got.kibPerSecond(), want.kibPerSecond());
            QCOMPARE(got.load.latency.count(), 100u);
            QCOMPARE(got.load.latency.min(), want.load.latency.min());
            QCOMPARE(got.load.latency.max(), want.load.latency.max());
            QCOMPARE(got.load.latency.mean(), want.load.latency.mean());
            QCOMPARE(got.load.latency.valueAtPercentile(90),
                     want.load.latency.valueAtPercentile(90));
            QCOMPARE(got.fdsLeftOpen, want.fdsLeftOpen);
            QCOMPARE(got.clientSamples.size(), std::size_t(3));
            QCOMPARE(got.clientSamples[2].endMicros, 300'000);
            QCOMPARE(got.clientSamples[2].latency.count(), 1u);
            QCOMPARE(got.serverSamples.size(), std::size_t(3));
            QCOMPARE(got.serverSamples[1].atMicros, want.serverSamples[1].atMicros);
            QCOMPARE(got.serverSamples[1].sockets, 7);
            QCOMPARE(got.serverSamples[1].total, 12);
            QVERIFY(got.serverSamples[0].byType && !got.serverSamples[1].byType);
            QCOMPARE(got.serverSamples[1].fdLimit, 1024);
            QCOMPARE(got.serverSamples[1].systemSeconds, 0.04);
        }
    }

    // The time-left estimate's priors: the bytes per second of the finished points of the same
    // model at the size asked or larger, of any target or of the one named; none when nothing
    // matches.
    void recentBandwidthOfLargePoints()
    {
        QTemporaryDir dir;
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("r.db")), &error), qPrintable(error));
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20), 0.0);
        const qint64 id = store.beginExperiment(QStringLiteral("x"), "{}", &error);
        const auto add = [&](quint64 size, quint64 bytes, std::int64_t micros, bool dnf,
                             client::LoadModel model, const QString &target = QStringLiteral("a")) {
            lab::PointResult p = samplePoint(0);
            p.target = target;
            p.sizeBytes = size;
            p.load.bytesRead = bytes;
            p.load.elapsedMicros = micros;
            p.dnf = dnf;
            p.model = model;
            QVERIFY2(store.addPoint(id, p, &error), qPrintable(error));
        };
        add(2 << 20, 3'000'000, 1'000'000, false, client::LoadModel::Closed);
        add(4 << 20, 1'000'000, 1'000'000, false, client::LoadModel::Closed);
        add(4096, 9'000'000, 1'000, false, client::LoadModel::Closed);      // too small
        add(8 << 20, 9'000'000, 1'000, true, client::LoadModel::Closed);    // did not finish
        add(8 << 20, 9'000'000, 1'000, false, client::LoadModel::Duration); // another model
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20), 2'000'000.0);
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("rate"), 1 << 20), 0.0);
        add(2 << 20, 8'000'000, 1'000'000, false, client::LoadModel::Closed, QStringLiteral("b"));
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20), 4'000'000.0);
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20, QStringLiteral("a")),
                 2'000'000.0);
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20, QStringLiteral("b")),
                 8'000'000.0);
        QCOMPARE(store.recentBytesPerSecond(QStringLiteral("closed"), 1 << 20, QStringLiteral("c")),
                 0.0);
    }

    // An experiment whose process died (kill -9, a crash) is marked interrupted on the next
    // open; its points stay as they were written.
    void deadOwnerMeansInterrupted()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.db"));
        QString error;
        {
            lab::ResultStore store;
            QVERIFY(store.open(path, &error));
            const qint64 id = store.beginExperiment(QStringLiteral("x"), "{}", &error);
            QVERIFY(store.addPoint(id, samplePoint(0), &error));
            store.beginExperiment(QStringLiteral("mine, still running"), "{}", &error);
            QSqlDatabase raw =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            raw.setDatabaseName(path);
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(
                q.exec(QStringLiteral("UPDATE experiments SET owner_pid = 999999999 WHERE id = %1")
                           .arg(id)));
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        lab::ResultStore store;
        QVERIFY(store.open(path, &error));
        const auto experiments = store.experiments();
        QCOMPARE(experiments.size(), 2);
        QCOMPARE(experiments[0].status, servelab::lab::RunStatus::Interrupted);
        QCOMPARE(experiments[0].points, 1);
        QCOMPARE(experiments[1].status, servelab::lab::RunStatus::Running); // this process is alive
    }

    void refusesWhatItShouldNotTouch_data()
    {
        QTest::addColumn<QByteArray>("setup"); // "garbage", "foreign", "newer"
        QTest::addColumn<QString>("mentions");
        QTest::newRow("not SQLite")
            << QByteArray("garbage") << QStringLiteral("not a readable SQLite database");
        QTest::newRow("someone else's")
            << QByteArray("foreign") << QStringLiteral("an SQLite database of something else");
        QTest::newRow("same version, other tables")
            << QByteArray("stale")
            << QStringLiteral("its tables are not the ones this ServeLab writes");
        QTest::newRow("newer schema")
            << QByteArray("newer") << QStringLiteral("written by a newer ServeLab (schema 99");
    }
    void refusesWhatItShouldNotTouch()
    {
        QFETCH(QByteArray, setup);
        QFETCH(QString, mentions);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.db"));
        if (setup == "garbage") {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray("this is not a database, it is my notes\n").repeated(200));
        } else {
            {
                QSqlDatabase raw =
                    QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("setup"));
                raw.setDatabaseName(path);
                QVERIFY(raw.open());
                QSqlQuery q(raw);
                if (setup == "stale") // schema 1 as a build between releases wrote it
                    QVERIFY(
                        q.exec(QStringLiteral("CREATE TABLE experiments (id INTEGER PRIMARY KEY, "
                                              "name TEXT, spec TEXT, status TEXT)")) &&
                        q.exec(QStringLiteral("PRAGMA user_version = 1")));
                else
                    QVERIFY(q.exec(setup == "foreign"
                                       ? QStringLiteral("CREATE TABLE notes (text TEXT)")
                                       : QStringLiteral("PRAGMA user_version = 99")));
                raw.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("setup"));
        }
        QFile before(path);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray bytes = before.readAll();
        before.close();

        lab::ResultStore store;
        QString error;
        QVERIFY(!store.open(path, &error));
        QVERIFY2(error.contains(mentions), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error));
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), bytes); // left as it was
    }

    // Another program holds the write lock: the write waits, then fails naming the lock and
    // what to do, and writes nothing.
    void lockedDatabaseIsReportedAndLeftAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("results.db"));
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        {
            QSqlDatabase other =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("other"));
            other.setDatabaseName(path);
            QVERIFY(other.open());
            QSqlQuery lock(other);
            QVERIFY(lock.exec(QStringLiteral("BEGIN EXCLUSIVE")));
            QElapsedTimer clock;
            clock.start();
            QCOMPARE(store.beginExperiment(QStringLiteral("x"), "{}", &error), 0);
            QVERIFY2(clock.elapsed() >= 2500, qPrintable(QString::number(clock.elapsed())));
            QVERIFY2(error.contains(QStringLiteral("the database is locked by another program "
                                                   "(waited 3 s)")),
                     qPrintable(error));
            QVERIFY2(error.contains(path), qPrintable(error));
            QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
            other.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other"));
        QCOMPARE(store.experiments().size(), 0);
        QVERIFY(store.beginExperiment(QStringLiteral("x"), "{}", &error) > 0); // free again
    }

    // Two programs opening one new database at once (a sweep creating it, the window or a
    // watcher opening it as soon as the file exists): both open it, neither sees the other's
    // half-made schema as "something else" or trips over its migration. Once, a watcher that
    // opened during the sweep's migration made the sweep fail, and a test waited for points
    // that never came (CI, 2026-12-07).
    void twoProgramsCreateOneDatabaseTogether()
    {
        QTemporaryDir dir;
        // The SQLite driver loaded from this thread first, as a program does: loaded first from
        // two threads at once, Qt 6.4 once spun at exit in its post routines.
        lab::ResultStore first;
        QString error;
        QVERIFY2(first.open(dir.filePath(QStringLiteral("first.db")), &error), qPrintable(error));
        for (int round = 0; round < 40; ++round) {
            const QString path = dir.filePath(QStringLiteral("results-%1.db").arg(round));
            std::atomic<int> ready{0};
            QString errors[2];
            bool opened[2] = {false, false};
            std::vector<std::thread> programs;
            for (int i = 0; i < 2; ++i)
                programs.emplace_back([&, i] {
                    lab::ResultStore store;
                    ++ready;
                    while (ready.load() < 2) {
                    }
                    opened[i] = store.open(path, &errors[i]);
                });
            for (auto &program : programs)
                program.join();
            QVERIFY2(opened[0], qPrintable(errors[0]));
            QVERIFY2(opened[1], qPrintable(errors[1]));
        }
    }

    // A database of schema 1 (before every model ran in experiments) opens migrated: its
    // points keep their figures and take their experiment's client model.
    void schemaOneIsMigrated()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.db"));
        QString error;
        {
            lab::ResultStore store;
            QVERIFY2(store.open(path, &error), qPrintable(error));
            const qint64 id = store.beginExperiment(
                QStringLiteral("wrk"), R"({"servelab": 1, "client": {"model": "duration"}})",
                &error);
            QVERIFY2(store.addPoint(id, testing::samplePoint(1), &error), qPrintable(error));
        }
        {
            // Back to schema 1 as it was: the columns schemas 2 and 3 added dropped.
            QSqlDatabase raw =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("downgrade"));
            raw.setDatabaseName(path);
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            for (const char *column : {"model",
                                       "offered_per_s",
                                       "late",
                                       "missed",
                                       "uncorrected_min_us",
                                       "uncorrected_max_us",
                                       "uncorrected_sum",
                                       "uncorrected_sum_squares",
                                       "uncorrected_hdr",
                                       "outside_steady",
                                       "little_users",
                                       "little_pass",
                                       "think_target_ms",
                                       "think_actual_ms",
                                       "think_pass",
                                       "tls_handshakes",
                                       "tls_resumed",
                                       "tls_min_us",
                                       "tls_max_us",
                                       "tls_sum",
                                       "tls_sum_squares",
                                       "tls_hdr"})
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE points DROP COLUMN %1")
                                    .arg(QLatin1String(column))),
                         qPrintable(q.lastError().text()));
            // Schema 6's: what each point cost and its verdict.
            QStringList costColumns = {QStringLiteral("client_threads"),
                                       QStringLiteral("cost_note"), QStringLiteral("verdict"),
                                       QStringLiteral("verdict_why")};
            for (const char *side : {"server_", "client_"})
                for (const auto &field : metrics::ResourceUse::fields)
                    costColumns << QLatin1String(side) + QLatin1String(field.key);
            // Schema 7's: its profile.
            for (const char *column :
                 {"requested", "note", "on_cpu", "off_cpu", "perf_data", "rps", "unprofiled_rps"})
                costColumns << QLatin1String("profile_") + QLatin1String(column);
            // Schema 8's: a distributed point's load agents.
            costColumns << QStringLiteral("agents") << QStringLiteral("start_skew_us");
            for (const QString &column : costColumns)
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE points DROP COLUMN %1").arg(column)),
                         qPrintable(q.lastError().text()));
            for (const char *column : {"processes", "parts"})
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE server_samples DROP COLUMN %1")
                                    .arg(QLatin1String(column))),
                         qPrintable(q.lastError().text()));
            QVERIFY(q.exec(QStringLiteral("DROP TABLE tune_events")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 1")));
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("downgrade"));
        lab::ResultStore store;
        QVERIFY2(store.open(path, &error), qPrintable(error));
        QCOMPARE(store.version(), lab::ResultStore::schemaVersion);
        const auto points = store.points(store.experiments().first().id, &error);
        QCOMPARE(points.size(), 1);
        QCOMPARE(points.first().model, client::LoadModel::Duration);
        QCOMPARE(points.first().load.ok, testing::samplePoint(1).load.ok);
        QCOMPARE(points.first().uncorrected.count(), 0u);
        // Kept before costs were read: unknown, not zero, and no verdict.
        QVERIFY(!points.first().serverUse.known());
        QVERIFY(!points.first().load.clientUse.known());
        QVERIFY(points.first().verdict.isEmpty());
        QVERIFY(!points.first().profile.requested);
        QVERIFY(points.first().agents.empty());
    }

    void unwritableFolderIsRefused()
    {
        lab::ResultStore store;
        QString error;
        QVERIFY(!store.open(QStringLiteral("/proc/servelab/results.db"), &error));
        QVERIFY2(error.contains(QStringLiteral("--db")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestResultStore)
#include "tst_resultstore.moc"
