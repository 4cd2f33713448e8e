// SPDX-License-Identifier: Apache-2.0
#include "lab/results/resultbundle.h"
#include "lab/results/resultstore.h"
#include "lab/spec/experimentspec.h"
#include "resultsview.h"
#include "session.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

lab::PointResult point(const QString &target, quint64 size, double kib)
{
    lab::PointResult p;
    p.target = target;
    p.sizeBytes = size;
    p.load.completed = p.load.ok = 10;
    p.load.elapsedMicros = 1'000'000;
    p.load.bytesRead = quint64(kib * 1024);
    client::ClientSample sample;
    sample.completed = 10;
    sample.intervalMicros = 100'000;
    sample.latency.record(250);
    p.clientSamples.push_back(sample);
    return p;
}

// A database with `runs` finished experiments of two points each, KiB/s 100 × (run + 1).
QList<qint64> makeDatabase(const QString &path, int runs)
{
    lab::ResultStore store;
    QString error;
    QList<qint64> ids;
    if (!store.open(path, &error))
        return ids;
    for (int run = 0; run < runs; ++run) {
        const qint64 id = store.beginExperiment(QStringLiteral("run %1").arg(run), "{}", &error);
        for (quint64 size : {4096ull, 8192ull})
            store.addPoint(id, point(QStringLiteral("a"), size, 100.0 * (run + 1)), &error);
        store.finishExperiment(id, lab::RunStatus::Done, &error);
        ids << id;
    }
    return ids;
}

} // namespace

// The session without a window: what it shows, what it opens and the signals the panels draw
// on.
class TestSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void specsAndPresets()
    {
        ui::Session session;
        QSignalSpy loaded(&session, &ui::Session::specLoaded);
        QSignalSpy rejected(&session, &ui::Session::specRejected);
        QString error;
        QVERIFY2(session.loadPreset(QStringLiteral("seed001-httpd-vs-tomcat"), &error),
                 qPrintable(error));
        QCOMPARE(loaded.size(), 1);
        QVERIFY(!loaded[0][0].value<lab::ExperimentSpec>().targets.isEmpty());
        QVERIFY(session.recentFiles().isEmpty()); // a preset is not a recent file
        QVERIFY(!session.loadPreset(QStringLiteral("no-such"), &error));
        QCOMPARE(error, QStringLiteral("there is no preset 'no-such'"));
        QVERIFY(!session.loadSpec(QStringLiteral("/nonexistent/spec.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("neither a spec file nor a preset")),
                 qPrintable(error));

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"servelab\": 1, \"targets\": []}");
        file.close();
        QVERIFY(!session.loadSpec(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot run")), qPrintable(error));
        QCOMPARE(rejected.size(), 1); // the editor gets its text to fix
        QCOMPARE(rejected[0][0].toString(), QStringLiteral("{\"servelab\": 1, \"targets\": []}"));
        QCOMPARE(loaded.size(), 1);
    }

    void databaseShowsOverlaysAndRefusals()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        const QList<qint64> ids = makeDatabase(db, 3);
        QCOMPARE(ids.size(), 3);
        ui::Session session;
        QSignalSpy database(&session, &ui::Session::databaseChanged);
        QSignalSpy shown(&session, &ui::Session::shownChanged);
        QString error;
        QVERIFY2(session.openResults(db, &error), qPrintable(error));
        QCOMPARE(database.size(), 1);
        QCOMPARE(session.database(), db);
        QCOMPARE(shown.size(), 1);
        QCOMPARE(session.points().size(), 2);
        QVERIFY2(session.title().contains(QStringLiteral("experiment %1").arg(ids[2])),
                 qPrintable(session.title()));
        QCOMPARE(session.name(), QStringLiteral("run 2"));
        QCOMPARE(session.recentFiles().value(0), db);
        // Kept slim: the 100 ms samples lose their histograms, the point keeps its own.
        QCOMPARE(session.points()[0].clientSamples.front().latency.count(), 0u);

        QVERIFY2(session.overlayExperiment(ids[0], &error), qPrintable(error));
        QCOMPARE(shown.size(), 2);
        QCOMPARE(session.overlayIds(), QList<qint64>{ids[0]});
        QVERIFY(!session.comparison().rows.isEmpty());
        QCOMPARE(session.comparison(ids[0]).rows.first().ratio(), 3.0); // run 2 over run 0
        session.clearOverlays();
        QCOMPARE(shown.size(), 3);
        QVERIFY(session.overlayIds().isEmpty());

        // Several at once: one change, the first shown, the others overlaid.
        QVERIFY2(session.showExperiments({ids[1], ids[0], ids[2]}, &error), qPrintable(error));
        QCOMPARE(shown.size(), 4);
        QCOMPARE(session.name(), QStringLiteral("run 1"));
        QCOMPARE(session.overlayIds(), (QList<qint64>{ids[0], ids[2]}));

        // A run that cannot be read changes nothing.
        QVERIFY(!session.showExperiments({ids[0], 999}, &error));
        QVERIFY2(error.contains(QStringLiteral("999")), qPrintable(error));
        QCOMPARE(shown.size(), 4);
        QCOMPARE(session.name(), QStringLiteral("run 1"));
        QVERIFY(!session.openResults(dir.filePath(QStringLiteral("none.db")), &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
        QCOMPARE(session.database(), db);
    }

    void aRunThenItsBundle()
    {
        ui::Session session;
        QSignalSpy began(&session, &ui::Session::runBegan);
        QSignalSpy added(&session, &ui::Session::pointAdded);
        QString error;
        QVERIFY(!session.exportBundle(QStringLiteral("/tmp/never.json"), &error));
        QVERIFY2(error.contains(QStringLiteral("nothing to export")), qPrintable(error));

        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("mine");
        lab::SweepSpec target = lab::SweepSpec::defaults();
        target.sizes = {65536, 4096, 65536};
        spec.targets = {target};
        session.beginRun(spec);
        QCOMPARE(began.size(), 1);
        QCOMPARE(began[0][0].value<QList<quint64>>(), (QList<quint64>{4096, 65536}));
        QCOMPARE(session.title(), QStringLiteral("mine"));
        session.addRunPoint(point(QStringLiteral("epoll+sendfile"), 4096, 200));
        QCOMPARE(added.size(), 1);
        QCOMPARE(session.points().size(), 1);
        QCOMPARE(session.points()[0].clientSamples.front().latency.count(), 0u);
        QCOMPARE(session.tableTsv().count(u'\n') >= 2, true);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bundle.json"));
        QVERIFY2(session.exportBundle(path, &error), qPrintable(error));
        lab::ResultBundle bundle;
        QVERIFY2(lab::ResultBundle::readFile(path, &bundle, &error), qPrintable(error));
        QCOMPARE(bundle.name, QStringLiteral("mine"));
        QCOMPARE(bundle.points.size(), 1);
        QVERIFY(!bundle.machine.isEmpty());

        // Opened again (a spec and a bundle are told apart by their points).
        ui::Session other;
        QSignalSpy shown(&other, &ui::Session::shownChanged);
        QVERIFY2(other.openFile(path, &error), qPrintable(error));
        QCOMPARE(shown.size(), 1);
        QCOMPARE(other.name(), QStringLiteral("mine"));
        QCOMPARE(other.points().size(), 1);
        QCOMPARE(other.recentFiles().value(0), path);
    }

    // Two runs of one name that differ in keep-alive only: the overlay says so, and the
    // Compare page lists the difference before any ratio, its verdicts marked as between setups.
    void overlaysSayHowTheirSetupDiffers()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        QList<qint64> ids;
        for (const char *keepAlive : {"false", "true"}) {
            const QByteArray spec = QByteArray(R"({"servelab": 1, "name": "same",
 "targets": [{"builtin": "epoll+sendfile"}], "sizes": ["4K"],
 "client": {"keep_alive": )") + keepAlive +
                                    "}}";
            const qint64 id = store.beginExperiment(QStringLiteral("same"), spec, &error);
            QVERIFY2(id, qPrintable(error));
            for (int r = 0; r < 3; ++r) {
                lab::PointResult p = point(QStringLiteral("epoll+sendfile"), 4096,
                                           keepAlive == QByteArrayView("true") ? 400 + r : 100 + r);
                p.repetition = r;
                QVERIFY2(store.addPoint(id, p, &error), qPrintable(error));
            }
            store.finishExperiment(id, lab::RunStatus::Done, &error);
            ids << id;
        }
        ui::Session session;
        session.setDatabase(db);
        ui::ResultsView view(&session);
        QVERIFY2(session.showExperiments({ids[1], ids[0]}, &error), qPrintable(error));
        QCOMPARE(session.overlays().size(), 1);
        const ui::Session::Overlay &overlay = session.overlays().first();
        QCOMPARE(overlay.name, QStringLiteral("same"));
        QVERIFY(overlay.setupDiffers);
        QCOMPARE(overlay.setup, QStringList{QStringLiteral("client.keep_alive: false → true")});

        const auto *hint = view.comparePage()->findChild<QLabel *>(QStringLiteral("compareHint"));
        QVERIFY(hint);
        const QString text = hint->text();
        const qsizetype listed = text.indexOf(QStringLiteral("client.keep_alive: false → true"));
        QVERIFY2(listed > 0 && listed < text.indexOf(QStringLiteral("Each ratio")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("#%1 same was set up differently").arg(ids[0])),
                 qPrintable(text));
        const auto *table = view.comparePage()->findChild<QTableWidget *>();
        QVERIFY(table && table->rowCount() == 1);
        const QString ratio = table->item(0, 4)->text();
        QVERIFY2(ratio.endsWith(QStringLiteral("faster (other setup)")), qPrintable(ratio));
    }

    // The run is the session's: one at a time, kept in its database, shown while it goes on
    // (nothing else can be), and over with a sentence that says how.
    void runsOneExperimentAndSaysHowItEnded()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("results.db"));
        const qint64 earlier = makeDatabase(db, 1).value(0);
        QVERIFY(earlier > 0);
        ui::Session session;
        session.setDatabase(db);
        QSignalSpy running(&session, &ui::Session::runningChanged);
        QSignalSpy started(&session, &ui::Session::runStarted);
        QSignalSpy added(&session, &ui::Session::pointAdded);
        QSignalSpy ended(&session, &ui::Session::runEnded);

        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("two sizes");
        lab::SweepSpec target = lab::SweepSpec::defaults();
        target.sizes = {4096, 8192};
        target.requests = 20;
        spec.targets = {target};
        QVERIFY(session.startRun(spec));
        QVERIFY(session.isRunning());
        QVERIFY(!session.startRun(spec)); // one at a time
        QString error;
        QVERIFY(!session.showExperiment(earlier, &error));
        QVERIFY2(error.contains(QStringLiteral("a run is going on")), qPrintable(error));
        QCOMPARE(session.title(), spec.name);

        QVERIFY(ended.wait(60000));
        const auto point = [&](int i) { return added[i][0].value<lab::PointResult>(); };
        QVERIFY2(ended[0][0].toBool(), qPrintable(point(0).reason));
        QVERIFY2(ended[0][1].toString().startsWith(QStringLiteral("Done: 2 points in ")),
                 qPrintable(ended[0][1].toString()));
        QVERIFY(ended[0][2].toString().isEmpty());
        QCOMPARE(added.size(), 2);
        QCOMPARE(running.size(), 2);
        QVERIFY(running[0][0].toBool() && !running[1][0].toBool());
        QVERIFY(!session.isRunning());
        QCOMPARE(started.size(), 1);
        const qint64 kept = started[0][0].toLongLong();
        QVERIFY(kept > earlier);
        QCOMPARE(session.runExperiment(), kept);
        lab::ResultStore store;
        QVERIFY2(store.open(db, &error), qPrintable(error));
        QCOMPARE(store.points(kept, &error).size(), 2);
        QVERIFY2(session.showExperiment(earlier, &error), qPrintable(error)); // free again
        // What Run will take: as long as the last run of this setup, whatever its name.
        lab::ExperimentSpec renamed = spec;
        renamed.name = QStringLiteral("another name");
        QVERIFY(session.lastTook(renamed) >= 0);
        lab::ExperimentSpec other = spec;
        other.targets[0].keepAlive = !other.targets[0].keepAlive;
        QCOMPARE(session.lastTook(other), -1);
    }

    void aCancelledRunKeepsItsPoints()
    {
        QTemporaryDir dir;
        ui::Session session;
        session.setDatabase(dir.filePath(QStringLiteral("results.db")));
        QSignalSpy added(&session, &ui::Session::pointAdded);
        QSignalSpy paused(&session, &ui::Session::pausedChanged);
        QSignalSpy ended(&session, &ui::Session::runEnded);
        lab::ExperimentSpec spec;
        spec.name = QStringLiteral("many sizes");
        lab::SweepSpec target = lab::SweepSpec::defaults();
        target.sizes = {4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288};
        target.requests = 2000;
        spec.targets = {target};
        // At the first point: held after the point being measured, then cancelled.
        connect(&session, &ui::Session::pointAdded, this, [&] {
            if (session.isPaused() || !session.isRunning())
                return;
            session.pauseRun();
            QVERIFY(session.isPaused());
            session.cancelRun();
        });
        QVERIFY(session.startRun(spec));
        QVERIFY(ended.wait(60000));
        QCOMPARE(paused.size(), 1);
        QVERIFY(!ended[0][0].toBool());
        const qsizetype kept = session.points().size();
        QVERIFY2(ended[0][1].toString().startsWith(
                     QStringLiteral("Cancelled after %1;")
                         .arg(kept == 1 ? QStringLiteral("1 point")
                                        : QStringLiteral("%1 points").arg(kept))),
                 qPrintable(ended[0][1].toString()));
        QVERIFY(session.points().size() >= 1 && session.points().size() < 8);
        QCOMPARE(session.points().size(), added.size());
        QVERIFY(!session.isRunning());
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
