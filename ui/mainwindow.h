// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "historydock.h"
#include "lab/experimentspec.h"
#include "lab/livefeed.h"
#include "lab/pointresult.h"
#include "lab/resultexport.h"
#include "lab/runcomparison.h"
#include "lab/sweepspec.h"
#include "chartrow.h"
#include "resultsview.h"
#include "runpanel.h"
#include "speceditor.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QMainWindow>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTimer;

namespace servelab::ui {

class ExperimentController;
class ExperimentForm;
class ExperimentWizard;
class ExperimentsModel;
class HistoryDock;
class ResultsView;
class RunPanel;
class SpecEditor;

// The window: set up an experiment (the form for one target, or a spec file, preset or the
// spec editor for any number), run it in a worker thread with pause, resume and cancel, and
// watch it point by point in the charts (ResultsView: a tab per page of chartrow.cpp) and the
// log; every run is kept in
// the results database, and the history dock shows earlier ones. Exports: chart as PNG or SVG,
// data as CSV.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // The form: one target.
    void setSpec(const lab::SweepSpec &spec);
    // The spec the form describes, or an empty list of sizes with *problem set.
    lab::SweepSpec spec(QString *problem = nullptr) const;
    // A whole experiment (a spec file, a preset): the form steps aside until "Use the form".
    void setExperiment(const lab::ExperimentSpec &spec);
    // What Run would run: the form's experiment or the one set; *problem set if it cannot run.
    lab::ExperimentSpec experiment(QString *problem = nullptr) const;
    bool usesForm() const { return m_fromForm; }
    bool loadSpecFile(const QString &path, QString *error);
    bool loadPreset(const QString &name, QString *error);
    // The experiment wizard, pre-filled with `spec`; Run there runs it here. Returns the
    // wizard (it deletes itself when closed).
    ExperimentWizard *openWizard(const lab::ExperimentSpec &spec);

    // The results database runs are kept in and the history reads (default: the user's).
    void setDatabase(const QString &path);
    QString database() const { return m_database; }
    // Shows a finished experiment: the latest of a database, or a bundle.json.
    bool openResults(const QString &path, QString *error);
    bool showExperiment(qint64 id, QString *error);
    // Draws an earlier experiment beside the one shown ("target (#id)", dashed, in the
    // throughput, fd, latency and requests/s charts) and adds its ratio at each size to the
    // Compare tab; several can be overlaid; clearOverlay() takes them all away.
    bool overlayExperiment(qint64 id, QString *error);
    void clearOverlay();
    // Shows the first and overlays the others (the history's selection).
    bool showExperiments(const QList<qint64> &ids, QString *error);

    bool isRunning() const { return m_runPanel->isRunning(); }
    bool isPaused() const { return m_runPanel->isPaused(); }

    // The charts, the seed's table and the comparison of what is shown.
    ResultsView *resultsView() const { return m_results; }
    ExperimentsModel *history() const { return m_history->model(); }
    QString highlighterName() const { return m_specEditor->highlighterName(); }
    QString statusMessage() const { return m_runPanel->status(); } // under the progress bar
    QString logText() const;
    QStringList specProblems() const { return m_specEditor->problems(); } // as shown

    // A chart of chartNames() (chartrow.h); PNG of `size` (empty:
    // as shown) at `scale`, or SVG for a .svg path.
    bool exportChart(const QString &chart, const QString &path, QString *error, qreal scale = 1,
                     QSize size = {}) const;
    // The size a chart has on screen (or would have in its tab).
    QSize chartSize(const QString &chart) const;
    QSize tabSize() const; // of the tab shown, at least 800×500: for a chart never shown
    bool exportChartPng(const QString &path, QString *error) const
    {
        return exportChart(QStringLiteral("throughput"), path, error);
    }
    bool exportCsv(const QString &path, QString *error) const;
    // The numbers a chart draws, as CSV with units in the header.
    bool exportChartData(const QString &chart, const QString &path, QString *error) const
    {
        return m_results->exportChartData(chart, path, error);
    }
    // The experiment shown (spec, machine, every point) as a bundle servelab-cli import reads.
    bool exportBundle(const QString &path, QString *error) const;
    QString tableTsv() const { return lab::formatSeedTsv(m_results->points()); } // clipboard
    // Opens what a file holds: a spec, a bundle.json or a results database (drops, recent).
    bool openFile(const QString &path, QString *error);
    QStringList recentFiles() const { return m_recent; }
    QString currentChartName() const; // of the tab shown; throughput when it is no chart
    // Shows a tab: a chart name, "spec", "log" or "compare"; false if there is none of that name.
    bool showTab(const QString &name);

    // What the 10 Hz timer does during a run: the point being measured drawn as it grows
    // (public for tests that feed it).
    void applyLive(const lab::LiveFeed::Update &update) { m_runPanel->applyLive(update); }

public Q_SLOTS:
    bool startRun();
    void pauseRun() { m_runPanel->pause(); }
    void resumeRun() { m_runPanel->resume(); }
    void cancelRun() { m_runPanel->cancel(); }
    void refreshHistory();

Q_SIGNALS:
    void runFinished(bool ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QWidget *createSettingsPanel();
    void connectHistory();
    void validateForm();
    void specChecked(const lab::ExperimentSpec &checked, const QStringList &problems);
    void showPoints(const QList<lab::PointResult> &points, QString title);
    void setRunning(bool running);
    void saveSettings() const;
    void restoreSettings();
    void remember(const QString &path);
    QString machineFacts() const;

    ResultsView *m_results;
    QTabWidget *m_tabs;
    SpecEditor *m_specEditor;
    HistoryDock *m_history;
    RunPanel *m_runPanel;
    ExperimentForm *m_form;
    QLabel *m_specNote;
    QPushButton *m_useForm;
    QLabel *m_problem;

    QString m_database;
    lab::ExperimentSpec m_experiment; // when not from the form
    bool m_fromForm = true;
    QString m_specError; // why the spec editor's text cannot run
    // What the charts show, for the bundle: its name, spec and machine.
    QString m_shownName;
    QString m_shownTitle; // how the status line names it
    QByteArray m_shownSpec;
    QJsonObject m_shownMachine;
    QStringList m_recent; // spec files, bundles and databases opened, newest first
};

} // namespace servelab::ui
