// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/results/runstatus.h"
#include "lab/run/livefeed.h"
#include "lab/spec/experimentspec.h"

#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace servelab::ui {

class ExperimentController;
class ResultsView;
class Session;
class TunePanel;

// Runs one experiment at a time and says how it goes: Run, Pause/Resume and Cancel, the
// progress with the time left, the line naming the point being measured (and its requests/s
// now), and the log. The run is what the session shows: its points go there, kept in the
// session's database; the live feed goes to the ResultsView.
class RunPanel : public QWidget
{
    Q_OBJECT
public:
    RunPanel(Session *session, ResultsView *results, QWidget *parent = nullptr);
    ~RunPanel() override;

    // Starts `spec`; false if a run is going on.
    bool start(const lab::ExperimentSpec &spec);
    void pause();
    void resume();
    void cancel();
    bool isRunning() const;
    bool isPaused() const;

    // Run enabled, or disabled with the reason as its tooltip.
    void setRunnable(bool runnable, const QString &why);
    // Before a run: how many points it will measure ("0 of 14 points").
    void showPlannedPoints(int points);
    void setStatus(const QString &text);
    QString status() const;
    QPlainTextEdit *logView() const { return m_log; }
    TunePanel *tunePanel() const { return m_tune; }
    QString logText() const; // the log as shown
    // What the 10 Hz timer does during a run: the point being measured drawn as it grows.
    void applyLive(const lab::LiveFeed::Update &update);

Q_SIGNALS:
    void runRequested();
    void started(qint64 experiment);
    void pointKept(qint64 experiment, bool dnf);
    void runningChanged(bool running);
    // ok: done, with at least one point that finished.
    void finished(bool ok);
    void message(const QString &text, int timeoutMs);

private:
    void onStarted(qint64 experiment, int total);
    void onPointStarted(int index, const QString &target, quint64 sizeBytes, int repetition);
    void onPointFinished(const lab::PointResult &point);
    void onProgress(int done, int total, qint64 remainingMs);
    void onFinished(lab::RunStatus status, const QString &reason);
    void setRunning(bool running);
    void tune(const QStringList &assignments);

    Session *m_session;
    ResultsView *m_results;
    ExperimentController *m_controller;
    QPushButton *m_run;
    QPushButton *m_pause;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_current;
    TunePanel *m_tune;
    QPlainTextEdit *m_log;
    QTimer *m_liveTimer;
    QElapsedTimer m_clock;
    QString m_pointLabel; // what is being measured, for the status line
    QString m_database;
    qint64 m_experiment = 0;
};

} // namespace servelab::ui
