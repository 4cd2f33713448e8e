// SPDX-License-Identifier: Apache-2.0
#include "runpanel.h"

#include "lab/results/humantext.h"
#include "lab/spec/servertemplate.h"
#include "lab/spec/sizelist.h"
#include "loghighlighter.h"
#include "resultsview.h"
#include "session.h"
#include "tunepanel.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace servelab::ui {

RunPanel::RunPanel(Session *session, ResultsView *results, QWidget *parent)
    : QWidget(parent), m_session(session), m_results(results), m_run(new QPushButton(tr("Run"))),
      m_pause(new QPushButton(tr("Pause"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_progress(new QProgressBar), m_current(new QLabel(tr("Ready."))), m_tune(new TunePanel),
      m_log(new QPlainTextEdit), m_liveTimer(new QTimer(this))
{
    m_run->setDefault(true);
    m_pause->setEnabled(false);
    m_pause->setToolTip(tr("Holds the run after the point being measured; the server stays up"));
    m_cancel->setEnabled(false);
    m_progress->setFormat(tr("%v of %m points"));
    m_progress->setValue(0);
    m_current->setWordWrap(true);
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setObjectName(QStringLiteral("log"));
    attachLogHighlighter(m_log->document());

    // Run on a row of its own: it names what it runs ("Run 65 points"), in a narrow panel too.
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_pause);
    buttons->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_run);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_current);
    layout->addWidget(m_tune);

    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_pause, &QPushButton::clicked, m_session,
            [s = m_session] { s->isPaused() ? s->resumeRun() : s->pauseRun(); });
    connect(m_cancel, &QPushButton::clicked, m_session, &Session::cancelRun);
    connect(m_session, &Session::cancelling, this,
            [this] { m_current->setText(tr("Cancelling…")); });
    connect(m_tune, &TunePanel::tuneRequested, this, &RunPanel::tune);
    // Live charts at most ten times a second, whatever the client and sampler produce.
    m_liveTimer->setInterval(100);
    connect(m_liveTimer, &QTimer::timeout, this, [this] { applyLive(m_session->takeLive()); });
    connect(m_session, &Session::runBegan, this, &RunPanel::onBegan);
    connect(m_session, &Session::runStarted, this, &RunPanel::onStarted);
    connect(m_session, &Session::pointStarted, this, &RunPanel::onPointStarted);
    connect(m_session, &Session::pointAdded, this, &RunPanel::onPointAdded);
    connect(m_session, &Session::runProgress, this, &RunPanel::onProgress);
    connect(m_session, &Session::pausedChanged, this, &RunPanel::onPaused);
    connect(m_session, &Session::runEnded, this, &RunPanel::onEnded);
}

RunPanel::~RunPanel() = default;

void RunPanel::onBegan(const QList<quint64> &, const lab::ExperimentSpec &spec)
{
    m_log->clear();
    m_progress->setValue(0);
    m_log->appendPlainText(tr("run: %1").arg(spec.name));
    for (const QString &line : spec.leftOut)
        m_log->appendPlainText(tr("note: %1").arg(line));
    if (!spec.hosts.isEmpty())
        m_log->appendPlainText(tr("across the hosts of %1: reaching them…").arg(spec.hosts));
    for (const lab::SweepSpec &t : spec.targets) // said before its DNF column comes
        if (const QString missing = lab::ServerTemplate::notInstalled(t.target); !missing.isEmpty())
            m_log->appendPlainText(tr("warning: %1").arg(missing));
    if (!m_session->isRunning())
        return; // points fed without a run (a test, an import): no controls to offer
    m_liveTimer->start();
    m_cancel->setEnabled(true);
    m_pause->setEnabled(true);
    m_pause->setText(tr("Pause"));
    m_run->setEnabled(false);
}

void RunPanel::onPaused(bool paused)
{
    m_pause->setText(paused ? tr("Resume") : tr("Pause"));
    m_current->setText(paused ? tr("Pausing after %1…").arg(m_pointLabel)
                              : tr("Measuring %1").arg(m_pointLabel));
}

void RunPanel::setRunnable(bool runnable, const QString &why)
{
    m_run->setEnabled(runnable && !m_session->isRunning());
    m_run->setToolTip(why.isEmpty() ? m_plan : why);
    if (!runnable)
        m_run->setText(tr("Run")); // no plan to name: the tooltip says why
}

void RunPanel::showPlannedPoints(int points, qint64 lastTookMs)
{
    const QString count = lab::countText(points, tr("point"), tr("points"));
    m_run->setText(tr("Run %1").arg(count));
    m_plan = lastTookMs >= 0
                 ? tr("%1, about %2: the last run of this setup took that long")
                       .arg(count, lab::durationText(lastTookMs))
                 : tr("%1; how long shows once the first points are measured").arg(count);
    m_run->setToolTip(m_plan);
    if (!m_session->isRunning() &&
        (m_current->text() == tr("Ready.") || m_current->text().startsWith(tr("Ready: "))))
        m_current->setText(lastTookMs >= 0 ? tr("Ready: %1, about %2 (as the last run of this "
                                                "setup took).")
                                                 .arg(count, lab::durationText(lastTookMs))
                                           : tr("Ready: %1.").arg(count));
    if (m_progress->value() <= 0)
        m_progress->setRange(0, points);
}

void RunPanel::setStatus(const QString &text)
{
    m_current->setText(text);
}

QString RunPanel::status() const
{
    return m_current->text();
}

void RunPanel::onStarted(qint64 experiment, int total)
{
    m_progress->setRange(0, total);
    if (experiment)
        m_log->appendPlainText(
            tr("kept as experiment %1 in %2").arg(experiment).arg(m_session->runDatabase()));
}

void RunPanel::onPointStarted(int index, const QString &target, quint64 sizeBytes, int repetition)
{
    m_pointLabel = tr("%1 at %2, repetition %3 (point %4 of %5)")
                       .arg(target, lab::formatSize(sizeBytes))
                       .arg(repetition + 1)
                       .arg(index + 1)
                       .arg(m_progress->maximum());
    if (!m_session->isPaused())
        m_current->setText(tr("Measuring %1").arg(m_pointLabel));
    m_tune->showOptions(m_session->liveOptions(), true);
}

void RunPanel::tune(const QStringList &assignments)
{
    QString error;
    const bool made = m_session->tuneRun(assignments, &error);
    const QString change = assignments.join(u' ');
    m_tune->showResult(made, made ? change : error);
    m_log->appendPlainText(made ? tr("tuned %1 during %2").arg(change, m_pointLabel)
                                : tr("warning: tuning %1 refused: %2").arg(change, error));
}

QString RunPanel::logText() const
{
    return m_log->toPlainText();
}

void RunPanel::applyLive(const lab::LiveFeed::Update &update)
{
    const double now = m_results->applyLive(update);
    if (!update.tune.empty()) // changed meanwhile (a spec's step, or Apply): the values now
        m_tune->showOptions(m_session->liveOptions(), true);
    if (!update.server.empty())
        m_tune->showCounters(now, update.server.back().threads, update.server.back().total);
    else if (now >= 0)
        m_tune->showCounters(now, 0, 0);
    if (now >= 0 && !m_session->isPaused())
        m_current->setText(tr("Measuring %1: %2 requests/s now")
                               .arg(m_pointLabel, QLocale().toString(now, 'f', 0)));
}

void RunPanel::onPointAdded(const lab::PointResult &point)
{
    QString line = tr("[%1/%2] %3, %4, repetition %5: ")
                       .arg(point.index + 1)
                       .arg(m_progress->maximum())
                       .arg(point.target, lab::formatSize(point.sizeBytes))
                       .arg(point.repetition + 1);
    line += point.dnf ? tr("DNF, %1").arg(point.reason)
                      : tr("%1 KiB/s").arg(point.kibPerSecond(), 0, 'f', 2);
    if (!point.dnf && !point.reason.isEmpty())
        line += QStringLiteral(" (") + point.reason + u')';
    if (point.server.acceptEmfile > 0)
        line += tr("; the server met EMFILE %1 times").arg(point.server.acceptEmfile);
    m_log->appendPlainText(line);
    // A run across machines: what each load agent did, and whether it finished.
    for (const lab::AgentLane &lane : point.agents)
        m_log->appendPlainText(QStringLiteral("  ") + lane.summary());
}

void RunPanel::onProgress(int done, int total, qint64 remainingMs)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    if (done < total && remainingMs >= 0)
        m_progress->setFormat(
            tr("%v of %m points, about %1 left").arg(lab::durationText(remainingMs)));
    else
        m_progress->setFormat(tr("%v of %m points"));
    if (m_session->isPaused())
        m_current->setText(
            tr("Paused after %1 of %2 points: Resume to go on").arg(done).arg(total));
}

void RunPanel::onEnded(bool, const QString &summary, const QString &)
{
    m_liveTimer->stop();
    m_tune->showOptions({}, false);
    m_progress->setFormat(tr("%v of %m points"));
    m_current->setText(summary);
    m_log->appendPlainText(summary);
    m_cancel->setEnabled(false);
    m_pause->setEnabled(false);
    m_pause->setText(tr("Pause"));
}

} // namespace servelab::ui
