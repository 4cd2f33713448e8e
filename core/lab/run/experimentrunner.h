// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/results/runstatus.h"
#include "lab/spec/experimentspec.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QStringList>

#include <memory>

namespace servelab::lab {

class LiveFeed;
class RemoteHosts;
class RunControl;

// Runs a whole experiment: each repetition, each target of the expanded spec, each size, with a
// SweepRunner per target; keeps every point in the results database as it is measured (one
// transaction each) and says how far it is and how long the rest will take. A target that
// cannot start is DNF at every size and the experiment goes on.
//
// Lives in a worker thread (the window) or is called directly (the CLI): the database is opened
// in run(), in the thread that runs it. pause(), resume() and cancel() work from any thread;
// a pause takes effect before the next point, a cancel stops the point being measured within
// one client poll. The experiment ends as done, cancelled or failed (the database could not
// keep a point); a process killed meanwhile leaves it running, which the next open of the
// database turns into interrupted.
class ExperimentRunner : public QObject
{
    Q_OBJECT
public:
    explicit ExperimentRunner(const ExperimentSpec &spec, QObject *parent = nullptr);
    ~ExperimentRunner() override;

    // The results database; empty (the default) keeps nothing.
    void setDatabase(const QString &path) { m_database = path; }
    // Whether results() keeps every point whole (the CLI writes its exports from them); a
    // window that has its own copies and the database turns it off to hold one copy less.
    void setKeepResults(bool keep) { m_keepResults = keep; }
    // Where each point's samples go as they are taken, for a live view (null: nowhere).
    void setLiveFeed(std::shared_ptr<LiveFeed> feed) { m_feed = std::move(feed); }
    // Where profiled points keep their perf.data (empty: PointProfiler::defaultFolder()).
    void setProfileFolder(const QString &folder) { m_profileFolder = folder; }
    // A distributed run (run --hosts): run() reaches the hosts first (a host not reached fails
    // the run, naming it), keeps what they are in machine()["hosts"], and every target serves
    // on the server host while the load hosts make each point's load. run() lets go of them at
    // its end (the last holder shuts their agents down): set them again before another run.
    void setHosts(std::shared_ptr<RemoteHosts> hosts) { m_hosts = std::move(hosts); }

    void pause();
    void resume();
    void cancel();
    bool isPaused() const;
    // Pause, resume, cancel and live changes to the target up now, from any thread.
    RunControl &control() { return *m_control; }

    const ExperimentSpec &spec() const { return m_spec; }
    const QList<SweepSpec> &targets() const { return m_targets; }
    const QStringList &labels() const { return m_labels; }
    int totalPoints() const;
    // After run(): the points in order, the machine they ran on, the experiment's id in the
    // database (0: none) and how it ended.
    const QList<PointResult> &results() const { return m_results; }
    const QJsonObject &machine() const { return m_machine; }
    qint64 experimentId() const { return m_experiment; }
    QString databasePath() const { return m_databasePath; }
    RunStatus status() const { return m_status; }
    QString finishReason() const { return m_reason; } // why it failed

public Q_SLOTS:
    void run();

Q_SIGNALS:
    void started(qint64 experiment, int totalPoints);
    void pointStarted(int index, const QString &target, quint64 sizeBytes, int repetition);
    void pointFinished(const servelab::lab::PointResult &point);
    // After each point: done of total, and the estimated milliseconds left (-1: not known yet).
    void progress(int done, int total, qint64 remainingMs);
    // Done, Cancelled or Failed (then `reason` says why).
    void finished(servelab::lab::RunStatus status, const QString &reason);

private:
    QList<std::pair<int, quint64>> pointsAfter(int repetition, int target, int sizeIndex) const;

    ExperimentSpec m_spec;
    QList<SweepSpec> m_targets;
    QStringList m_labels;
    QString m_database;
    QString m_databasePath;
    std::shared_ptr<RunControl> m_control;
    std::shared_ptr<LiveFeed> m_feed;
    std::shared_ptr<RemoteHosts> m_hosts;
    QString m_profileFolder;
    QList<PointResult> m_results;
    QJsonObject m_machine;
    qint64 m_experiment = 0;
    RunStatus m_status = RunStatus::Running;
    QString m_reason;
    bool m_keepResults = true;
    int m_done = 0;
};

} // namespace servelab::lab
