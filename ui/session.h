// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/results/runcomparison.h"
#include "lab/results/runstatus.h"
#include "lab/run/livefeed.h"
#include "lab/spec/experimentspec.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QStringList>

namespace servelab::ui {

class ExperimentController;

// What the window is about, without a widget: the results database, the experiment shown (a
// run going on, one from the database or a bundle) with the runs overlaid on it, the spec last
// opened, and the recent files. It opens databases, bundles, specs and presets (the spec with
// lab::SpecSource, as `servelab-cli run`; a bundle with ResultBundle::readFile, as `import`)
// and exports what is shown. It runs one experiment at a time (startRun(), in a worker thread),
// and the run is what is shown while it goes on. The panels draw from it and follow its
// signals; a failure changes nothing and says why in *error.
class Session : public QObject
{
    Q_OBJECT
public:
    explicit Session(QObject *parent = nullptr);
    ~Session() override; // cancels a run going on and waits for its thread

    // The results database runs are kept in and shown from (default: the user's).
    void setDatabase(const QString &path);
    QString database() const { return m_database; }

    // The experiment shown: its points (kept slim, see slim()), name, spec and machine (for
    // the bundle), and how the status line names it.
    const QList<lab::PointResult> &points() const { return m_points; }
    QString name() const { return m_name; }
    QString title() const { return m_title; }
    // An earlier run drawn beside the shown one, and the ratio at each size against it.
    struct Overlay
    {
        qint64 id = 0;
        QString name;                   // the experiment's, as kept
        QList<lab::PointResult> points; // as stored, targets not renamed
        lab::RunComparison comparison;
        // What it was set up to measure differently from the shown run (SetupDifferences:
        // the overlay's spec → the shown one's), and whether both specs were kept and differ.
        QStringList setup;
        bool setupDiffers = false;
    };
    const QList<Overlay> &overlays() const { return m_overlays; }
    QList<qint64> overlayIds() const;
    // Against the overlay `id` (0: the first); empty without one.
    const lab::RunComparison &comparison(qint64 id = 0) const;

    // A spec file or a bundle.json (told apart by their "points"), or a results database.
    bool openFile(const QString &path, QString *error);
    // A bundle.json, or the latest experiment of a results database (which becomes the one
    // runs are kept in).
    bool openResults(const QString &path, QString *error);
    // A spec file or a preset's name: specLoaded() when it can run; specRejected() with its
    // text and false when it cannot.
    bool loadSpec(const QString &fileOrPreset, QString *error);
    bool loadPreset(const QString &name, QString *error);
    // From the database: one experiment; the first of `ids` with the others overlaid (every one
    // read before anything changes; specLoaded() with the first's spec, so that Run runs it
    // again); one more overlaid on the shown one; none overlaid.
    bool showExperiment(qint64 id, QString *error);
    bool showExperiments(const QList<qint64> &ids, QString *error);
    bool overlayExperiment(qint64 id, QString *error);
    void clearOverlays();

    // A run of `spec`, kept in the database: it is what is shown from now on (runBegan), its
    // points come one by one (pointAdded), and runEnded() says how it went. False, with
    // nothing changed, while one is going on. During it nothing else can be shown.
    bool startRun(const lab::ExperimentSpec &spec);
    void pauseRun(); // after the point being measured; the server stays up
    void resumeRun();
    void cancelRun();
    bool isRunning() const { return m_running; }
    bool isPaused() const;
    // The experiment the run is kept as in `runDatabase()` (0: not yet, or not kept).
    qint64 runExperiment() const { return m_runExperiment; }
    QString runDatabase() const { return m_runDatabase; }
    // During a run: a change to the server being measured (false with the reason), what may
    // change on it now (name=value), the point's samples since the last call (~10 Hz).
    bool tuneRun(const QStringList &assignments, QString *error);
    QStringList liveOptions() const;
    lab::LiveFeed::Update takeLive();

    // How long the latest finished run of the same setup as `spec` took in the database (ms),
    // or -1 when none did: what the Run button says a run will take.
    qint64 lastTook(const lab::ExperimentSpec &spec) const;

    // What a run does to what is shown (startRun calls them; a test can feed points so):
    // shown empty, on the planned sizes; then a point.
    void beginRun(const lab::ExperimentSpec &spec);
    void addRunPoint(const lab::PointResult &point);

    bool exportCsv(const QString &path, QString *error) const;    // every point
    bool exportBundle(const QString &path, QString *error) const; // bundle.json
    QString tableTsv() const;                                     // the seed's table
    QStringList recentFiles() const { return m_recent; }          // spec files, bundles, databases
    void setRecentFiles(const QStringList &paths) { m_recent = paths; }

    // What is kept of a point: everything but the latency histogram of each 100 ms client
    // sample (the point's own histogram stays; the database has the rest), so that a 10-minute
    // run is megabytes, not a hundred of them per copy.
    static lab::PointResult slim(lab::PointResult point);

Q_SIGNALS:
    void databaseChanged(const QString &path);
    // A finished experiment is shown, or its overlays changed: everything is drawn again.
    void shownChanged();
    // A run: shown from now on (`sizes` planned); kept as `experiment` in the database (0:
    // not kept) with `total` points planned; a point being measured; one measured; how far;
    // paused or going on; over. `ok`: done, with at least one point that finished; `summary`
    // says how it ended in a sentence, `reason` why it did not finish (empty when done).
    void runBegan(const QList<quint64> &sizes, const lab::ExperimentSpec &spec);
    void runStarted(qint64 experiment, int total);
    void pointStarted(int index, const QString &target, quint64 sizeBytes, int repetition);
    void pointAdded(const lab::PointResult &point);
    void runProgress(int done, int total, qint64 remainingMs);
    void pausedChanged(bool paused);
    void cancelling(); // asked to stop: it ends after the point being measured
    void runningChanged(bool running);
    void runEnded(bool ok, const QString &summary, const QString &reason);
    void specLoaded(const lab::ExperimentSpec &spec);
    void specRejected(const QString &text);

private:
    bool idle(QString *error) const; // false during a run: nothing else may be shown
    void runFinished(lab::RunStatus status, const QString &reason);
    QList<lab::PointResult> storedPoints(qint64 id, QString *error) const;
    // Overlay `id` of `points` against what is shown, named and set apart as kept.
    Overlay overlayOf(qint64 id, const QList<lab::PointResult> &points) const;
    void show(QList<lab::PointResult> points, const QString &title);
    void remember(const QString &path);

    QString m_database;
    QList<lab::PointResult> m_points;
    QList<Overlay> m_overlays;
    QString m_name;
    QString m_title;
    QByteArray m_spec;
    QJsonObject m_machine;
    QStringList m_recent; // newest first

    // The database's finished runs, newest first, by setup (SetupDifferences::canonical), for
    // lastTook(); read again when the database changes or a run ends.
    mutable QList<QPair<QByteArray, qint64>> m_tookBySetup;
    mutable bool m_tookRead = false;

    ExperimentController *m_run;
    QString m_runDatabase;
    qint64 m_runExperiment = 0;
    bool m_running = false; // from startRun() until runEnded()
    QElapsedTimer m_runClock;
};

} // namespace servelab::ui
