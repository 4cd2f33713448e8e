// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"
#include "lab/results/pointresult.h"
#include "lab/results/runcomparison.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace servelab::ui {

// What the window is about, without a widget: the results database, the experiment shown (a
// run going on, one from the database or a bundle) with the runs overlaid on it, the spec last
// opened, and the recent files. It opens databases, bundles, specs and presets (the spec with
// lab::SpecSource, as `servelab-cli run`; a bundle with ResultBundle::readFile, as `import`)
// and exports what is shown. The panels draw from it and follow its signals; a failure
// changes nothing and says why in *error.
class Session : public QObject
{
    Q_OBJECT
public:
    explicit Session(QObject *parent = nullptr);

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
        QList<lab::PointResult> points; // as stored, targets not renamed
        lab::RunComparison comparison;
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

    // A run starts: it is what is shown, empty, on the planned sizes; its points come one by
    // one.
    void beginRun(const lab::ExperimentSpec &spec);
    void addRunPoint(const lab::PointResult &point);

    bool exportCsv(const QString &path, QString *error) const;      // every point
    bool exportBundle(const QString &path, QString *error) const;   // bundle.json
    QString tableTsv() const;                                       // the seed's table
    QStringList recentFiles() const { return m_recent; } // spec files, bundles, databases
    void setRecentFiles(const QStringList &paths) { m_recent = paths; }

    // What is kept of a point: everything but the latency histogram of each 100 ms client
    // sample (the point's own histogram stays; the database has the rest), so that a 10-minute
    // run is megabytes, not a hundred of them per copy.
    static lab::PointResult slim(lab::PointResult point);

Q_SIGNALS:
    void databaseChanged(const QString &path);
    // A finished experiment is shown, or its overlays changed: everything is drawn again.
    void shownChanged();
    void runBegan(const QList<quint64> &sizes);
    void pointAdded(const lab::PointResult &point);
    void specLoaded(const lab::ExperimentSpec &spec);
    void specRejected(const QString &text);

private:
    QList<lab::PointResult> storedPoints(qint64 id, QString *error) const;
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
};

} // namespace servelab::ui
