// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/run/livefeed.h"
#include "lab/spec/experimentspec.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace servelab::ui {

class ResultsView;
class Session;
class TunePanel;

// How the session's run goes, with its controls: Run, Pause/Resume and Cancel, the progress
// with the time left, the line naming the point being measured (and its requests/s now), the
// Tune panel and the log. The run itself is the session's (Session::startRun); the panel asks
// for it (runRequested) and draws the point being measured in the ResultsView as it grows.
class RunPanel : public QWidget
{
    Q_OBJECT
public:
    RunPanel(Session *session, ResultsView *results, QWidget *parent = nullptr);
    ~RunPanel() override;

    // Run enabled, or disabled with the reason as its tooltip.
    void setRunnable(bool runnable, const QString &why);
    // Before a run: how many points it will measure ("Run 14 points", "0 of 14 points") and,
    // when a run of the same setup is kept, how long that took (ms; -1: not known).
    void showPlannedPoints(int points, qint64 lastTookMs = -1);
    void setStatus(const QString &text);
    QString status() const;
    QPlainTextEdit *logView() const { return m_log; }
    QString logText() const; // the log as shown
    // What the 10 Hz timer does during a run: the point being measured drawn as it grows.
    void applyLive(const lab::LiveFeed::Update &update);

Q_SIGNALS:
    void runRequested();

private:
    void onBegan(const QList<quint64> &sizes, const lab::ExperimentSpec &spec);
    void onStarted(qint64 experiment, int total);
    void onPointStarted(int index, const QString &target, quint64 sizeBytes, int repetition);
    void onPointAdded(const lab::PointResult &point);
    void onProgress(int done, int total, qint64 remainingMs);
    void onPaused(bool paused);
    void onEnded(bool ok, const QString &summary, const QString &reason);
    void tune(const QStringList &assignments);

    Session *m_session;
    ResultsView *m_results;
    QPushButton *m_run;
    QPushButton *m_pause;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_current;
    TunePanel *m_tune;
    QPlainTextEdit *m_log;
    QTimer *m_liveTimer;
    QString m_pointLabel; // what is being measured, for the status line
    QString m_plan;       // what Run will run, for its tooltip
};

} // namespace servelab::ui
