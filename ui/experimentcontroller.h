// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/results/runstatus.h"
#include "lab/run/livefeed.h"
#include "lab/spec/experimentspec.h"

#include <QObject>

#include <memory>

class QThread;

namespace servelab::lab {
class ExperimentRunner;
}

namespace servelab::ui {

// Owns the worker thread of one experiment at a time and forwards what the runner reports to
// the GUI thread (queued, as value types). pause(), resume() and cancel() reach the runner at
// once from here; the destructor cancels the run and joins the thread.
class ExperimentController : public QObject
{
    Q_OBJECT
public:
    explicit ExperimentController(QObject *parent = nullptr);
    ~ExperimentController() override;

    bool isRunning() const { return m_thread != nullptr; }
    bool isPaused() const;
    // `database`: the results database to keep it in (empty: none).
    void start(const lab::ExperimentSpec &spec, const QString &database);
    void pause();
    void resume();
    void cancel();
    // A change to the server being measured (the Tune panel): false with the reason.
    bool tune(const QStringList &assignments, QString *error);
    // What may change on it now, name=value (empty: nothing that can be tuned is up).
    QStringList liveOptions();
    // The point being measured: its samples since the last call (GUI thread, ~10 Hz).
    lab::LiveFeed::Update takeLive();

Q_SIGNALS:
    void started(qint64 experiment, int totalPoints);
    void pointStarted(int index, const QString &target, quint64 sizeBytes, int repetition);
    void pointFinished(const servelab::lab::PointResult &point);
    void progress(int done, int total, qint64 remainingMs);
    // done, cancelled or failed (then with the reason); the thread is gone by then.
    void finished(servelab::lab::RunStatus status, const QString &reason);

private:
    void cleanUp();

    QThread *m_thread = nullptr;
    lab::ExperimentRunner *m_runner = nullptr;
    std::shared_ptr<lab::LiveFeed> m_feed;
};

} // namespace servelab::ui
