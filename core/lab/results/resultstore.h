// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"
#include "resultschema.h"
#include "runstatus.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace servelab::lab {

// Every run, kept: an SQLite database (Qt SQL, QSQLITE, WAL) of experiments with their spec,
// points with their summary, error counts and latency histogram (HdrHistogram-encoded), and the
// timelines. A point is written in one transaction, so a crash or kill -9 loses at most the
// point being written; experiments a dead process left running are marked interrupted when the
// database is next opened. The schema is versioned (PRAGMA user_version) and migrated forward
// in a transaction; a database from a newer ServeLab, or one that is not ServeLab's, is refused.
// Use one ResultStore per thread.
class ResultStore
{
public:
    static constexpr int schemaVersion = ResultSchema::schemaVersion;

    struct Experiment
    {
        qint64 id = 0;
        QString name;
        QByteArray spec; // the JSON it ran
        RunStatus status = RunStatus::Running;
        QDateTime started;
        QDateTime finished;
        int points = 0;
        int dnfPoints = 0;   // of those, did not finish
        QJsonObject machine; // machineFacts() of where it ran
    };

    ResultStore();
    ~ResultStore();
    ResultStore(const ResultStore &) = delete;
    ResultStore &operator=(const ResultStore &) = delete;

    // The user's data folder ($XDG_DATA_HOME or ~/.local/share)/servelab/servelab.db, shared by
    // servelab and servelab-cli.
    static QString defaultPath();

    // Opens (creating it and its folder if needed) and migrates; false with *error naming the
    // file and what to do.
    bool open(const QString &path, QString *error);
    bool isOpen() const;
    QString path() const { return m_path; }
    int version() const;

    // A new experiment, marked running and owned by this process; 0 on failure.
    qint64 beginExperiment(const QString &name, const QByteArray &spec, QString *error,
                           const QJsonObject &machine = {});
    bool addPoint(qint64 experiment, const PointResult &point, QString *error);
    // Done, Cancelled or Failed.
    bool finishExperiment(qint64 experiment, RunStatus status, QString *error);

    QList<Experiment> experiments(QString *error = nullptr) const;
    // The points of an experiment with their figures, errors, histogram and timelines.
    QList<PointResult> points(qint64 experiment, QString *error = nullptr) const;
    // The bytes per second the latest 100 finished points of `model` at `minSize` bytes or more
    // read (their bytes over their load's time), of the target labelled `target` (empty: of
    // any); 0 when none was kept. The time-left estimate's priors: what a new run can expect of
    // this machine, and of each of its targets, before it has measured a large size.
    double recentBytesPerSecond(const QString &model, quint64 minSize,
                                const QString &target = {}) const;

private:
    int markInterrupted();

    QString m_connection;
    QString m_path;
};

} // namespace servelab::lab
