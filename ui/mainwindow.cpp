// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"

#include "profilepanel.h"

#include "helpbrowser.h"
#include "lab/spec/experimentname.h"
#include "welcomepage.h"

#include "experimentform.h"
#include "experimentsmodel.h"
#include "experimentwizard.h"
#include "historydock.h"
#include "lab/results/humantext.h"
#include "lab/spec/sizelist.h"
#include "resultsview.h"
#include "runpanel.h"
#include "speceditor.h"
#include "windowmenus.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QGroupBox>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace servelab::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_session(new Session(this)),
      m_results(new ResultsView(m_session, this)), m_tabs(new QTabWidget),
      m_specEditor(new SpecEditor), m_history(new HistoryDock(this)),
      m_runPanel(new RunPanel(m_session, m_results)), m_profile(new ProfilePanel(m_session))
{
    setWindowTitle(tr("ServeLab"));
    m_results->setObjectName(QStringLiteral("resultsView"));
    m_specEditor->setObjectName(QStringLiteral("specEditor"));
    m_runPanel->setObjectName(QStringLiteral("runPanel"));
    m_profile->setObjectName(QStringLiteral("profilePanel"));

    const auto pages = m_results->chartPages();
    for (int i = 0; i < pages.size(); ++i)
        addTab(pages[i], chartPageTitle(chartPages()[i]), chartPageShortTitle(chartPages()[i]));
    addTab(m_specEditor, tr("Spec"), tr("Spec"));
    addTab(m_runPanel->logView(), tr("Log"), tr("Log"));
    addTab(m_results->comparePage(), tr("Compare"), tr("Compare"));
    addTab(m_profile, tr("Profile"), tr("Profile"));
    // Every tab in sight on a narrow screen (1024 wide): the short names where the long ones do
    // not fit, elided past that, never scrolled out of sight; the whole name on hover.
    m_tabs->setUsesScrollButtons(false);
    m_tabs->setElideMode(Qt::ElideRight);
    m_tabs->installEventFilter(this);
    connect(m_specEditor, &SpecEditor::checked, this, &MainWindow::specChecked);
    connect(m_session, &Session::databaseChanged, this, &MainWindow::refreshHistory);
    connect(m_session, &Session::shownChanged, this, &MainWindow::shownChanged);
    connect(m_session, &Session::runBegan, this, [this] { m_history->setOverlayShown(false); });
    connect(m_session, &Session::specLoaded, this, &MainWindow::setExperiment);
    connect(m_session, &Session::specRejected, this, [this](const QString &text) {
        m_tabs->setCurrentWidget(m_specEditor);
        m_specEditor->editSpec(text);
    });

    auto *splitter = new QSplitter(Qt::Horizontal);
    m_settingsPanel = createSettingsPanel();
    m_settingsPanel->setObjectName(QStringLiteral("settingsPanel"));
    splitter->addWidget(m_settingsPanel);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    // On a narrow screen the panel takes its least, so that the tabs keep their names.
    splitter->setSizes({screen()->availableSize().width() < 1200 ? 260 : 320, 10000});
    setCentralWidget(splitter);
    addDockWidget(Qt::BottomDockWidgetArea, m_history);
    resizeDocks({m_history}, {120}, Qt::Vertical); // the charts keep most of the height
    connectHistory();
    buildWindowMenus(this, m_session, this, {m_results, m_settingsPanel, m_history});
    statusBar()->addPermanentWidget(new QLabel(machineFacts()));

    // The run is the session's: the window follows it there.
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(m_session, &Session::runningChanged, this, &MainWindow::setRunning);
    connect(m_session, &Session::runStarted, this, &MainWindow::refreshHistory);
    connect(m_session, &Session::pointAdded, this, [this](const lab::PointResult &point) {
        if (m_session->isRunning() && m_session->runExperiment())
            m_history->model()->countPoint(m_session->runExperiment(), point.dnf);
        if (point.dnf)
            statusBar()->showMessage(
                tr("%1 at %2: DNF, %3")
                    .arg(point.target, lab::formatSize(point.sizeBytes), point.reason),
                10000);
    });
    connect(m_session, &Session::runEnded, this,
            [this](bool ok, const QString &summary, const QString &reason) {
                if (!reason.isEmpty())
                    statusBar()->showMessage(reason);
                refreshHistory();
                Q_EMIT runFinished(ok, summary);
            });

    setSpec(lab::SweepSpec::defaults());
    setAcceptDrops(true);
    // 1280×800, or the whole screen when it is smaller (1024×640 still reads); on a larger
    // screen three quarters of it. Centred.
    const QRect screenArea = screen()->availableGeometry();
    resize(QSize(1280, 800).expandedTo(screenArea.size() * 3 / 4).boundedTo(screenArea.size()));
    move(screenArea.center() - rect().center());
    restoreSettings();
    // A first start (nothing kept yet) opens on the welcome page, until a run begins.
    refreshHistory();
    if (m_history->model()->rowCount() == 0) {
        m_welcome = new WelcomePage;
        m_welcome->setObjectName(QStringLiteral("welcomePage"));
        m_tabs->insertTab(0, m_welcome, tr("Start"));
        m_tabs->setTabToolTip(0, tr("Start"));
        m_tabTitles.insert(m_welcome, {tr("Start"), tr("Start")});
        fitTabTitles();
        m_tabs->setCurrentWidget(m_welcome);
        connect(m_welcome, &WelcomePage::runRequested, this, [this](const QString &preset) {
            QString error;
            if (!m_session->loadPreset(preset, &error) || !startRun())
                QMessageBox::warning(this, tr("Run"), error.isEmpty() ? m_problem->text() : error);
        });
        connect(m_welcome, &WelcomePage::openRequested, this, &MainWindow::openPreset);
        connect(m_session, &Session::runBegan, this, &MainWindow::dropWelcome);
    }
}

void MainWindow::addTab(QWidget *page, const QString &title, const QString &shortTitle)
{
    const int at = m_tabs->addTab(page, title);
    m_tabs->setTabToolTip(at, title);
    m_tabTitles.insert(page, {title, shortTitle});
}

void MainWindow::fitTabTitles()
{
    // The bar's size hint is every tab at its whole text.
    for (bool full : {true, false}) {
        for (int i = 0; i < m_tabs->count(); ++i) {
            const auto titles = m_tabTitles.value(m_tabs->widget(i));
            m_tabs->setTabText(i, full ? titles.first : titles.second);
        }
        if (m_tabs->tabBar()->sizeHint().width() <= m_tabs->width())
            return;
    }
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tabs && event->type() == QEvent::Resize)
        fitTabTitles();
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::openPreset(const QString &name)
{
    QString error;
    if (!m_session->loadPreset(name, &error))
        QMessageBox::warning(this, tr("Presets"), error);
    else
        openWizard(experiment());
}

void MainWindow::dropWelcome()
{
    if (!m_welcome)
        return;
    m_tabs->removeTab(m_tabs->indexOf(m_welcome));
    m_tabTitles.remove(m_welcome);
    fitTabTitles();                // one tab fewer: the long titles may fit now
    m_welcome->setParent(nullptr); // gone from the window at once, deleted once its slot returns
    m_welcome->deleteLater();
    m_welcome = nullptr;
}

MainWindow::~MainWindow() = default;

HelpBrowser *MainWindow::showHelp(const QString &anchor)
{
    if (!m_help)
        m_help = new HelpBrowser(this);
    m_help->showAt(anchor);
    return m_help;
}

QWidget *MainWindow::createSettingsPanel()
{
    m_form = new ExperimentForm;
    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_problem->setObjectName(QStringLiteral("problem"));

    m_specNote = new QLabel;
    m_specNote->setObjectName(QStringLiteral("specNote"));
    m_specNote->setWordWrap(true);
    m_useForm = new QPushButton(tr("Use the form instead"));
    auto *box = new QVBoxLayout;
    box->addWidget(m_form);
    box->addWidget(m_specNote);
    box->addWidget(m_useForm);
    auto *experiment = new QGroupBox(tr("Experiment"));
    experiment->setLayout(box);

    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->addWidget(experiment);
    layout->addWidget(m_problem);
    layout->addWidget(m_runPanel);
    layout->addStretch();
    panel->setMinimumWidth(260);

    connect(m_useForm, &QPushButton::clicked, this, [this] {
        m_fromForm = true;
        validateForm();
    });
    connect(m_form, &ExperimentForm::changed, this, &MainWindow::validateForm);
    return panel;
}

// Show, overlay or take the overlay away, as the history asks (not during a run).
void MainWindow::connectHistory()
{
    const auto act = [this](auto what) {
        return [this, what](auto... id) {
            QString error;
            if (m_session->isRunning())
                statusBar()->showMessage(tr("A run is going on: show earlier runs once it ends"),
                                         5000);
            else if (!(m_session->*what)(id..., &error))
                QMessageBox::warning(this, tr("Run history"), error);
        };
    };
    connect(m_history, &HistoryDock::showRequested, this, act(&Session::showExperiment));
    connect(m_history, &HistoryDock::overlayRequested, this, act(&Session::overlayExperiment));
    connect(m_history, &HistoryDock::showTogetherRequested, this, act(&Session::showExperiments));
    connect(m_history, &HistoryDock::removeOverlayRequested, m_session, &Session::clearOverlays);
    connect(m_history, &HistoryDock::compareRequested, this, [this, act](const QList<qint64> &ids) {
        act (&Session::showExperiments)(ids);
        m_tabs->setCurrentWidget(m_results->comparePage());
    });
    connect(m_history, &HistoryDock::runAgainRequested, this, [this](qint64 id) {
        QString error;
        if (m_session->isRunning())
            statusBar()->showMessage(tr("A run is going on: run this again once it ends"), 5000);
        else if (!m_session->showExperiment(id, &error))
            QMessageBox::warning(this, tr("Run history"), error);
        else
            startRun();
    });
}

QString MainWindow::machineFacts() const
{
    return tr("%1 cores · %2 %3 · Qt %4")
        .arg(QThread::idealThreadCount())
        .arg(QSysInfo::kernelType(), QSysInfo::kernelVersion(), QString::fromLatin1(qVersion()));
}

void MainWindow::setSpec(const lab::SweepSpec &spec)
{
    m_form->setSpec(spec);
    m_fromForm = true;
    validateForm();
}

lab::SweepSpec MainWindow::spec(QString *problem) const
{
    return m_form->spec(problem);
}

void MainWindow::setExperiment(const lab::ExperimentSpec &spec)
{
    m_experiment = spec;
    m_specError.clear();
    m_fromForm = false;
    validateForm();
}

lab::ExperimentSpec MainWindow::experiment(QString *problem) const
{
    QString error;
    lab::ExperimentSpec out;
    if (m_fromForm) {
        out.targets = {spec(&error)};
        out.name = lab::experimentName(out);
        out.repetitions = m_form->repetitions();
    } else {
        out = m_experiment;
        error = m_specError;
    }
    if (problem)
        *problem = error;
    return out;
}

ExperimentWizard *MainWindow::openWizard(const lab::ExperimentSpec &spec)
{
    auto *wizard = new ExperimentWizard(this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    wizard->setSpec(spec);
    connect(wizard, &QDialog::accepted, this, [this, wizard] {
        setExperiment(wizard->spec());
        startRun();
    });
    wizard->open();
    return wizard;
}

void MainWindow::validateForm()
{
    m_form->setVisible(m_fromForm);
    m_specNote->setVisible(!m_fromForm);
    m_useForm->setVisible(!m_fromForm);
    QString problem;
    const lab::ExperimentSpec current = experiment(&problem);
    const QList<lab::SweepSpec> targets = current.expanded();
    int points = 0;
    for (const auto &t : targets)
        points += int(t.sizes.size());
    if (!m_fromForm) {
        // The targets as written, then each axis that multiplies them into series.
        QStringList axes;
        const auto axis = [&axes](qsizetype n, const QString &one, const QString &many) {
            if (n > 1)
                axes << lab::countText(n, one, many);
        };
        axis(current.sweepValues.size(), tr("value of %1").arg(current.sweepOption),
             tr("values of %1").arg(current.sweepOption));
        axis(current.concurrencies.size(), tr("concurrency"), tr("concurrencies"));
        axis(current.rates.size(), tr("offered rate"), tr("offered rates"));
        axis(current.transports.size(), tr("transport"), tr("transports"));
        axis(current.loads.size(), tr("load"), tr("loads"));
        QString shape = lab::countText(current.targets.size(), tr("target"), tr("targets"));
        if (!axes.isEmpty())
            shape += QStringLiteral(" × ") + axes.join(QStringLiteral(" × ")) +
                     tr(" (%1)").arg(lab::countText(targets.size(), tr("series"), tr("series")));
        m_specNote->setText(
            tr("<b>%1</b><br>%2, %3 per repetition, %4. Edit it in the Spec "
               "tab.")
                .arg(current.name.toHtmlEscaped(), shape.toHtmlEscaped(),
                     lab::countText(points, tr("point"), tr("points")),
                     lab::countText(current.repetitions, tr("repetition"), tr("repetitions"))));
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_runPanel->setRunnable(problem.isEmpty(), problem);
    if (!problem.isEmpty() || m_session->isRunning())
        return;
    // The editor shows what Run would run, unless the user is typing in it.
    if (m_fromForm || !m_specEditor->isBeingEdited())
        m_specEditor->showSpec(QString::fromUtf8(current.toJson()));
    m_runPanel->showPlannedPoints(points * current.repetitions, m_session->lastTook(current));
}

// The editor's text, checked as the lab checks it: the experiment Run will run, or why it
// cannot (its problems listed in the editor with their place).
void MainWindow::specChecked(const lab::ExperimentSpec &checked, const QStringList &problems)
{
    m_fromForm = false;
    if (problems.isEmpty()) {
        m_specError.clear();
        m_experiment = checked;
        if (m_experiment.name.isEmpty())
            m_experiment.name = tr("edited spec");
    } else {
        m_specError = problems.size() == 1
                          ? tr("the spec has 1 problem: see the Spec tab")
                          : tr("the spec has %1 problems: see the Spec tab").arg(problems.size());
    }
    validateForm();
}

void MainWindow::refreshHistory()
{
    QString error;
    if (!m_history->reload(m_session->database(), &error))
        statusBar()->showMessage(error, 10000);
    if (m_history->model()->rowCount() > 0)
        dropWelcome();
}

bool MainWindow::startRun()
{
    QString problem;
    const lab::ExperimentSpec spec = experiment(&problem);
    if (!problem.isEmpty() || m_session->isRunning())
        return false;
    return m_session->startRun(spec);
}

void MainWindow::setRunning(bool running)
{
    m_form->setLocked(running);
    m_useForm->setEnabled(!running);
    m_specEditor->setLocked(running);
    validateForm();
}

// The status line names what is shown, with the runs overlaid on it.
void MainWindow::shownChanged()
{
    QString title = m_session->title();
    const QList<qint64> overlays = m_session->overlayIds();
    m_history->setOverlayShown(!overlays.isEmpty());
    QStringList ids;
    for (qint64 id : overlays)
        ids << QString::number(id);
    if (!ids.isEmpty())
        title += tr(", overlaid with experiment %1", nullptr, int(ids.size()))
                     .arg(ids.join(QStringLiteral(", ")));
    m_runPanel->setStatus(tr("Showing %1: %2 points.").arg(title).arg(m_session->points().size()));
}

bool MainWindow::showTab(const QString &name)
{
    const int index = int((chartPages() << QStringLiteral("spec") << QStringLiteral("log")
                                        << QStringLiteral("compare") << QStringLiteral("profile"))
                              .indexOf(chartIndex(name) >= 0 ? chartPage(name) : name));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index + pageOffset()); // the same page once the welcome goes
    return true;
}

int MainWindow::pageOffset() const
{
    return m_welcome ? 1 : 0; // the welcome page comes first while it is there
}

QString MainWindow::currentChartName() const
{
    const int index = m_tabs->currentIndex() - pageOffset();
    const QStringList pages = chartPages();
    return index >= 0 && index < pages.size() ? pages[index] : QStringLiteral("throughput");
}

bool MainWindow::exportChart(const QString &chart, const QString &path, QString *error, qreal scale,
                             QSize size) const
{
    // A chart in a tab not shown yet takes the shown tab's size.
    return m_results->exportChart(chart, path, error, scale, tabSize(), size);
}

QSize MainWindow::chartSize(const QString &chart) const
{
    const QSize shown = m_results->shownSize(chart);
    return shown.width() >= 200 && shown.height() >= 150 ? shown : tabSize();
}

QSize MainWindow::tabSize() const
{
    return m_tabs->currentWidget()->size().expandedTo(QSize(800, 500));
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = event->mimeData()->urls().value(0).toLocalFile();
    QString error;
    if (m_session->isRunning())
        statusBar()->showMessage(tr("A run is going on: drop files once it ends"), 5000);
    else if (!m_session->openFile(path, &error))
        QMessageBox::warning(this, tr("Open"), error);
    else
        event->acceptProposedAction();
}

// What the next start finds as it was: the window's layout, the form, the tab, recent files.
void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"),
                      std::max(0, m_tabs->currentIndex() - pageOffset()));
    settings.setValue(QStringLiteral("form/spec"), QString::fromUtf8(spec().toJson()));
    settings.setValue(QStringLiteral("form/repetitions"), m_form->repetitions());
    settings.setValue(QStringLiteral("recent"), m_session->recentFiles());
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    m_form->setRepetitions(settings.value(QStringLiteral("form/repetitions"), 1).toInt());
    m_session->setRecentFiles(settings.value(QStringLiteral("recent")).toStringList());
    // The form as it was left, if it still reads as a spec.
    lab::ExperimentSpec last;
    QStringList problems;
    if (lab::ExperimentSpec::parse(settings.value(QStringLiteral("form/spec")).toByteArray(),
                                   QStringLiteral("settings"), &last, &problems) &&
        !last.targets.isEmpty())
        setSpec(last.targets.first());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // On the offscreen platform (tests, --export-png) there is no one to answer.
    if (m_session->isRunning() && isVisible() && QApplication::platformName() != u"offscreen" &&
        QMessageBox::question(this, tr("Stop the run?"),
                              tr("An experiment is running. Stop it and close? The points "
                                 "measured so far are kept.")) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    m_session->cancelRun();
    saveSettings();
    event->accept();
}

} // namespace servelab::ui
