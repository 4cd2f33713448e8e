// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "chartrow.h"
#include "historydock.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/sweepspec.h"
#include "resultsview.h"
#include "runpanel.h"
#include "session.h"
#include "speceditor.h"
#include "windowactions.h"

#include <QHash>
#include <QMainWindow>
#include <QPair>

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
class HelpBrowser;
class HistoryDock;
class ResultsView;
class WelcomePage;
class ProfilePanel;
class RunPanel;
class Session;
class SpecEditor;

// The window: set up an experiment (the form for one target, or a spec file, preset or the
// spec editor for any number), run it in a worker thread with pause, resume and cancel, and
// watch it point by point in the charts (ResultsView: a tab per page of chartrow.cpp) and the
// log; every run is kept in
// the results database, and the history dock shows earlier ones. Exports: chart as PNG or SVG,
// data as CSV.
class MainWindow : public QMainWindow, public WindowActions
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // What the window is about: the database, the experiment shown, the spec opened, the
    // recent files (opening, showing, overlaying and exporting go through it).
    Session *session() const { return m_session; }
    // Its parts (the charts, the run panel, the history dock, the spec editor, the profile,
    // the experiment panel, the first start's page) are its children, each named after its
    // role ("resultsView", "runPanel", "history", "specEditor", "profilePanel",
    // "settingsPanel", "welcomePage"): the menus get them from here, tests by name.
    // The help page (F1), at a section (empty: the top).
    HelpBrowser *showHelp(const QString &anchor = {}) override;

    // The form: one target.
    void setSpec(const lab::SweepSpec &spec);
    // The spec the form describes, or an empty list of sizes with *problem set.
    lab::SweepSpec spec(QString *problem = nullptr) const;
    // A whole experiment (a spec file, a preset): the form steps aside until "Use the form".
    void setExperiment(const lab::ExperimentSpec &spec);
    // What Run would run: the form's experiment or the one set; *problem set if it cannot run.
    lab::ExperimentSpec experiment(QString *problem = nullptr) const override;
    bool usesForm() const { return m_fromForm; }
    // The experiment wizard, pre-filled with `spec`; Run there runs it here. Returns the
    // wizard (it deletes itself when closed).
    ExperimentWizard *openWizard(const lab::ExperimentSpec &spec) override;
    // A preset, in the wizard (File → Presets, the welcome page): look, change, run.
    void openPreset(const QString &name) override;

    // A chart of chartNames() (chartrow.h); PNG of `size` (empty: as shown) at `scale`, or
    // SVG for a .svg path. A chart in a tab not shown yet takes the shown tab's size.
    bool exportChart(const QString &chart, const QString &path, QString *error, qreal scale = 1,
                     QSize size = {}) const override;
    // The size a chart has on screen (or would have in its tab).
    QSize chartSize(const QString &chart) const override;
    QString currentChartName() const override; // of the tab shown; throughput when no chart
    // Shows a tab: a chart name, "spec", "log" or "compare"; false if there is none of that name.
    bool showTab(const QString &name);

public Q_SLOTS:
    bool startRun() override;
    void refreshHistory();

Q_SIGNALS:
    // A run ended; `status` says how (the run panel's line: why it did not finish).
    void runFinished(bool ok, const QString &status);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void addTab(QWidget *page, const QString &title, const QString &shortTitle);
    void fitTabTitles();    // the long titles where they all fit, else the short ones
    int pageOffset() const; // tabs before the chart pages (the welcome page, on a first start)
    QWidget *createSettingsPanel();
    void connectHistory();
    void validateForm();
    void specChecked(const lab::ExperimentSpec &checked, const QStringList &problems);
    void shownChanged();
    void dropWelcome();
    QSize tabSize() const; // of the tab shown, at least 800×500: for a chart never shown
    void setRunning(bool running);
    void saveSettings() const;
    void restoreSettings();
    QString machineFacts() const;

    Session *m_session;
    ResultsView *m_results;
    QTabWidget *m_tabs;
    SpecEditor *m_specEditor;
    HistoryDock *m_history;
    RunPanel *m_runPanel;
    ProfilePanel *m_profile;
    ExperimentForm *m_form;
    QLabel *m_specNote;
    QPushButton *m_useForm;
    QLabel *m_problem;
    QWidget *m_settingsPanel = nullptr;
    WelcomePage *m_welcome = nullptr; // the first start's page, until a run begins
    HelpBrowser *m_help = nullptr;

    QHash<const QWidget *, QPair<QString, QString>> m_tabTitles; // a tab's long, short title
    lab::ExperimentSpec m_experiment;                            // when not from the form
    bool m_fromForm = true;
    QString m_specError; // why the spec editor's text cannot run
};

} // namespace servelab::ui
