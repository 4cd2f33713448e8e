#include "mainwindow.h"

#include "chartfile.h"
#include "experimentcontroller.h"
#include "experimentsmodel.h"
#include "experimentwizard.h"
#include "fdtypeschart.h"
#include "jsonhighlighter.h"
#include "lab/externalserver.h"
#include "lab/machinefacts.h"
#include "lab/resultbundle.h"
#include "lab/resultexport.h"
#include "lab/resultstore.h"
#include "lab/sizelist.h"
#include "latencychart.h"
#include "loghighlighter.h"
#include "processchart.h"
#include "ratechart.h"
#include "resultstablemodel.h"
#include "servelab_config.h"
#include "server/servermode.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBlock>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

QString formatDuration(qint64 ms)
{
    const qint64 s = (ms + 500) / 1000;
    return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                   : QStringLiteral("%1 s").arg(s);
}

// "FILE:LINE:COLUMN: …" of a spec problem, as (line, column); (0, 0) when it names none.
std::pair<int, int> placeOf(const QString &problem)
{
    const QStringList parts = problem.split(u':');
    if (parts.size() < 4)
        return {0, 0};
    return {parts[1].toInt(), parts[2].toInt()};
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_controller(new ExperimentController(this)),
      m_chart(new ThroughputChart), m_timeline(new TimelineChart), m_fdTypes(new FdTypesChart),
      m_latency(new LatencyChart), m_rate(new RateChart), m_process(new ProcessChart),
      m_model(new ResultsTableModel(this)), m_history(new ExperimentsModel(this)),
      m_historyProxy(new QSortFilterProxyModel(this)), m_table(new QTableView),
      m_tabs(new QTabWidget), m_log(new QPlainTextEdit),
      m_database(lab::ResultStore::defaultPath()), m_liveTimer(new QTimer(this))
{
    // Live charts at most ten times a second, whatever the client and sampler produce.
    m_liveTimer->setInterval(100);
    connect(m_liveTimer, &QTimer::timeout, this, [this] { applyLive(m_controller->takeLive()); });
    setWindowTitle(tr("ServeLab"));
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ResultsTableModel::Size, Qt::AscendingOrder);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *throughput = new QSplitter(Qt::Vertical);
    throughput->addWidget(m_chart);
    throughput->addWidget(m_table);
    throughput->setStretchFactor(0, 3);
    throughput->setStretchFactor(1, 1);

    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setObjectName(QStringLiteral("log"));
    attachLogHighlighter(m_log->document());

    m_tabs->addTab(throughput, tr("Throughput"));
    // Per point (and live) above, by type with the points' starts and EMFILE below.
    auto *fds = new QSplitter(Qt::Vertical);
    fds->addWidget(m_timeline);
    fds->addWidget(m_fdTypes);
    m_tabs->addTab(fds, tr("File descriptors"));
    m_tabs->addTab(m_latency, tr("Latency"));
    m_tabs->addTab(m_rate, tr("Requests/s"));
    m_tabs->addTab(m_process, tr("Process"));
    m_tabs->addTab(createSpecEditor(), tr("Spec"));
    m_compare = new QTableWidget(0, 5);
    m_compare->setObjectName(QStringLiteral("compare"));
    m_compare->setHorizontalHeaderLabels(
        {tr("Target"), tr("File size"), tr("KiB/s (shown)"), tr("KiB/s (overlay)"), tr("Ratio")});
    m_compare->horizontalHeader()->setStretchLastSection(true);
    m_compare->verticalHeader()->hide();
    m_compare->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_compare->setToolTip(
        tr("Overlay an earlier run from the history (right-click it) to compare"));
    m_tabs->addTab(m_log, tr("Log"));
    m_tabs->addTab(m_compare, tr("Compare"));

    auto *splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(createSettingsPanel());
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);
    createHistoryDock();
    createMenus();
    statusBar()->addPermanentWidget(new QLabel(machineFacts()));

    connect(m_controller, &ExperimentController::started, this, &MainWindow::onStarted);
    connect(m_controller, &ExperimentController::pointStarted, this, &MainWindow::onPointStarted);
    connect(m_controller, &ExperimentController::pointFinished, this, &MainWindow::onPointFinished);
    connect(m_controller, &ExperimentController::progress, this, &MainWindow::onProgress);
    connect(m_controller, &ExperimentController::finished, this, &MainWindow::onFinished);

    setSpec(lab::SweepSpec::defaults());
    setAcceptDrops(true);
    resize(1280, 800);
    restoreSettings();
    refreshHistory();
}

MainWindow::~MainWindow() = default;

QWidget *MainWindow::createSettingsPanel()
{
    m_sizes = new QLineEdit;
    m_sizes->setToolTip(tr("File sizes, e.g. 4K,64K,1M, or 4K..32M for every doubling in between"));
    m_target = new QComboBox;
    m_target->addItem(tr("Built-in server"), QStringLiteral("builtin"));
    for (const auto &name : lab::ExternalServer::templates()) {
        m_target->addItem(name, name);
        if (lab::ExternalServer::binaryFor(name).isEmpty()) {
            // Listed so users know it exists, but not selectable until it is installed.
            auto *model = qobject_cast<QStandardItemModel *>(m_target->model());
            if (auto *item = model ? model->item(m_target->count() - 1) : nullptr) {
                item->setEnabled(false);
                item->setToolTip(tr("%1 is not installed on this machine").arg(name));
            }
        }
    }
    m_target->setToolTip(tr("What is measured: a built-in mode, or a real server ServeLab "
                            "configures and starts on a free port"));
    m_isolated = new QCheckBox(tr("Separate process"));
    m_isolated->setToolTip(tr("Run the built-in server as a child servelab-cli serve, with its own "
                              "fd table"));
    m_fdLimit = new QSpinBox;
    m_fdLimit->setRange(0, 1 << 20);
    m_fdLimit->setSpecialValueText(tr("inherit"));
    m_fdLimit->setToolTip(tr("ulimit -n of the server process (implies a separate process); the "
                             "seeds used 1024"));
    m_mode = new QComboBox;
    for (const auto &mode : server::availableModes())
        m_mode->addItem(QString::fromStdString(mode.name()));
    m_threads = new QSpinBox;
    m_threads->setRange(1, 1024);
    m_requests = new QSpinBox;
    m_requests->setRange(1, 10'000'000);
    m_requests->setToolTip(tr("Requests per file size, like ab -n"));
    m_concurrency = new QSpinBox;
    m_concurrency->setRange(1, 100000);
    m_concurrency->setToolTip(tr("Requests in flight at once, like ab -c"));
    m_keepAlive = new QCheckBox(tr("Keep-alive (ab -k)"));
    m_repetitions = new QSpinBox;
    m_repetitions->setRange(1, 100);
    m_repetitions->setToolTip(tr("Each point measured this many times: mean, deviation and a 95 % "
                                 "confidence interval"));
    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_problem->setObjectName(QStringLiteral("problem"));

    auto *form = new QFormLayout;
    form->addRow(tr("File sizes"), m_sizes);
    form->addRow(tr("Target"), m_target);
    form->addRow(tr("Server mode"), m_mode);
    form->addRow(QString(), m_isolated);
    form->addRow(tr("fd limit"), m_fdLimit);
    form->addRow(tr("Server threads"), m_threads);
    form->addRow(tr("Requests per size"), m_requests);
    form->addRow(tr("Concurrency"), m_concurrency);
    form->addRow(QString(), m_keepAlive);
    form->addRow(tr("Repetitions"), m_repetitions);
    m_form = new QWidget;
    m_form->setLayout(form);
    m_specNote = new QLabel;
    m_specNote->setWordWrap(true);
    m_useForm = new QPushButton(tr("Use the form instead"));
    auto *box = new QVBoxLayout;
    box->addWidget(m_form);
    box->addWidget(m_specNote);
    box->addWidget(m_useForm);
    auto *experiment = new QGroupBox(tr("Experiment"));
    experiment->setLayout(box);

    m_run = new QPushButton(tr("Run"));
    m_run->setDefault(true);
    m_pause = new QPushButton(tr("Pause"));
    m_pause->setEnabled(false);
    m_pause->setToolTip(tr("Holds the run after the point being measured; the server stays up"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_cancel);
    m_progress = new QProgressBar;
    m_progress->setFormat(tr("%v of %m points"));
    m_progress->setValue(0);
    m_current = new QLabel(tr("Ready."));
    m_current->setWordWrap(true);

    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->addWidget(experiment);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_current);
    layout->addStretch();
    panel->setMinimumWidth(300);

    connect(m_run, &QPushButton::clicked, this, &MainWindow::startRun);
    connect(m_pause, &QPushButton::clicked, this,
            [this] { isPaused() ? resumeRun() : pauseRun(); });
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelRun);
    connect(m_useForm, &QPushButton::clicked, this, [this] {
        m_fromForm = true;
        validateForm();
    });
    connect(m_sizes, &QLineEdit::textChanged, this, &MainWindow::validateForm);
    for (auto *spin : {m_threads, m_requests, m_concurrency, m_repetitions, m_fdLimit})
        connect(spin, &QSpinBox::valueChanged, this, &MainWindow::validateForm);
    for (auto *box : {m_keepAlive, m_isolated})
        connect(box, &QCheckBox::toggled, this, &MainWindow::validateForm);
    connect(m_mode, &QComboBox::currentTextChanged, this, &MainWindow::validateForm);
    connect(m_target, &QComboBox::currentIndexChanged, this, &MainWindow::validateForm);
    return panel;
}

QWidget *MainWindow::createSpecEditor()
{
    m_specEditor = new QPlainTextEdit;
    m_specEditor->setObjectName(QStringLiteral("specEditor"));
    m_specEditor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_specEditor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_highlighter = attachJsonHighlighter(m_specEditor->document());
    m_specProblems = new QListWidget;
    m_specProblems->setObjectName(QStringLiteral("specProblems"));
    m_specProblems->setToolTip(tr("Click a problem to go to its place in the spec"));
    m_specProblems->setMaximumHeight(120);
    m_specCheck = new QTimer(this);
    m_specCheck->setSingleShot(true);
    m_specCheck->setInterval(300); // check once typing pauses
    connect(m_specEditor, &QPlainTextEdit::textChanged, this, &MainWindow::specEdited);
    connect(m_specCheck, &QTimer::timeout, this, &MainWindow::checkSpecText);
    connect(m_specProblems, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const auto [line, column] = placeOf(item->text());
        if (line < 1)
            return;
        QTextCursor cursor(m_specEditor->document()->findBlockByNumber(line - 1));
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::max(0, column - 1));
        m_specEditor->setTextCursor(cursor);
        m_specEditor->setFocus();
    });
    connect(m_specProblems, &QListWidget::itemClicked, m_specProblems, &QListWidget::itemActivated);
    auto *editor = new QSplitter(Qt::Vertical);
    editor->addWidget(m_specEditor);
    editor->addWidget(m_specProblems);
    editor->setStretchFactor(0, 1);
    return editor;
}

void MainWindow::createHistoryDock()
{
    m_historyProxy->setSourceModel(m_history);
    m_historyProxy->setSortRole(Qt::UserRole);
    m_historyProxy->setFilterKeyColumn(-1);
    m_historyProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto *filter = new QLineEdit;
    filter->setPlaceholderText(tr("Search runs (name, status)…"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_historyProxy,
            &QSortFilterProxyModel::setFilterFixedString);
    auto *view = new QTableView;
    view->setObjectName(QStringLiteral("historyView"));
    view->setModel(m_historyProxy);
    view->setSortingEnabled(true);
    view->sortByColumn(ExperimentsModel::Id, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(ExperimentsModel::Name, QHeaderView::Stretch);
    view->setToolTip(tr("Double-click a run to show it"));
    connect(view, &QTableView::activated, this, [this](const QModelIndex &index) {
        QString error;
        if (isRunning())
            statusBar()->showMessage(tr("A run is going on: show earlier runs once it ends"), 5000);
        else if (!showExperiment(index.data(ExperimentsModel::IdRole).toLongLong(), &error))
            QMessageBox::warning(this, tr("Run history"), error);
    });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint &at) {
        const QModelIndex index = view->indexAt(at);
        if (!index.isValid() || isRunning())
            return;
        const qint64 id = index.data(ExperimentsModel::IdRole).toLongLong();
        QMenu menu;
        menu.addAction(tr("Show"), this, [this, id] {
            QString error;
            if (!showExperiment(id, &error))
                QMessageBox::warning(this, tr("Run history"), error);
        });
        menu.addAction(tr("Overlay on the shown run"), this, [this, id] {
            QString error;
            if (!overlayExperiment(id, &error))
                QMessageBox::warning(this, tr("Run history"), error);
        });
        menu.addAction(tr("Remove overlay"), this, &MainWindow::clearOverlay)
            ->setEnabled(m_overlayId != 0);
        menu.exec(view->viewport()->mapToGlobal(at));
    });
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter);
    layout->addWidget(view);
    auto *dock = new QDockWidget(tr("Run history"), this);
    dock->setObjectName(QStringLiteral("history"));
    dock->setWidget(panel);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {170}, Qt::Vertical); // the charts keep most of the height
}

void MainWindow::createMenus()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New Experiment…"), QKeySequence::New, this,
                    [this] { openWizard(experiment()); });
    file->addAction(tr("&Open Spec…"), QKeySequence::Open, this, &MainWindow::openSpecInteractive);
    // A preset opens in the wizard, pre-filled: look, change, run.
    auto *presets = file->addMenu(tr("&Presets"));
    for (const QString &name :
         QDir(QStringLiteral(":/presets")).entryList({QStringLiteral("*.json")})) {
        presets->addAction(name.chopped(5), this, [this, name] {
            QString error;
            if (!loadPreset(name.chopped(5), &error))
                QMessageBox::warning(this, tr("Presets"), error);
            else
                openWizard(m_experiment);
        });
    }
    file->addAction(tr("Open &Results…"), this, &MainWindow::openResultsInteractive);
    auto *recent = file->addMenu(tr("Open Rece&nt"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        for (const QString &path : m_recent)
            recent->addAction(path, this, [this, path] {
                QString error;
                if (!openFile(path, &error))
                    QMessageBox::warning(this, tr("Open Recent"), error);
            });
        recent->setEnabled(true);
        if (m_recent.isEmpty())
            recent->addAction(tr("(nothing yet)"))->setEnabled(false);
    });
    file->addSeparator();
    file->addAction(tr("Export Chart as &PNG…"), QKeySequence(tr("Ctrl+E")), this,
                    [this] { exportChartInteractive(QStringLiteral("png")); });
    file->addAction(tr("Export Chart as &SVG…"), this,
                    [this] { exportChartInteractive(QStringLiteral("svg")); });
    file->addAction(tr("Export Chart &Data as CSV…"), this, [this] {
        const QString chart = currentChartName();
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Chart Data"), chart + QStringLiteral(".csv"), tr("CSV files (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportChartData(chart, path, &error))
            QMessageBox::warning(this, tr("Export Chart Data"), error);
    });
    file->addAction(tr("Export Data as &CSV…"), this, &MainWindow::exportCsvInteractive);
    file->addAction(tr("Export Experiment as &Bundle…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Bundle"), QStringLiteral("bundle.json"), tr("Bundles (*.json)"));
        QString error;
        if (!path.isEmpty() && !exportBundle(path, &error))
            QMessageBox::warning(this, tr("Export Bundle"), error);
        else if (!path.isEmpty())
            statusBar()->showMessage(tr("Bundle written to %1").arg(path), 5000);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Copy Table (TSV)"), QKeySequence(tr("Ctrl+Shift+C")), this, [this] {
        QGuiApplication::clipboard()->setText(tableTsv());
        statusBar()->showMessage(tr("The table is on the clipboard: paste it into a spreadsheet"),
                                 5000);
    });

    auto *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), QKeySequence(tr("Ctrl+R")), this, &MainWindow::startRun);
    run->addAction(tr("&Pause / Resume"), QKeySequence(tr("Ctrl+P")), this,
                   [this] { isPaused() ? resumeRun() : pauseRun(); });
    run->addAction(tr("&Cancel"), QKeySequence(tr("Ctrl+.")), this, &MainWindow::cancelRun);

    auto *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ServeLab"), this, [this] {
        QMessageBox::about(
            this, tr("About ServeLab"),
            tr("<b>ServeLab %1</b><br>A performance lab for static file serving.<br><br>"
               "Qt %2<br>Syntax highlighting: %3<br>Results database: %4")
                .arg(QStringLiteral(SERVELAB_VERSION), QString::fromLatin1(qVersion()),
                     m_highlighter, m_database.toHtmlEscaped()));
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
    m_sizes->setText(lab::formatSizeList(spec.sizes));
    const int mode = m_mode->findText(spec.mode);
    if (mode >= 0)
        m_mode->setCurrentIndex(mode);
    m_threads->setValue(spec.serverThreads);
    m_requests->setValue(static_cast<int>(std::min<quint64>(spec.requests, 10'000'000)));
    m_concurrency->setValue(spec.concurrency);
    m_keepAlive->setChecked(spec.keepAlive);
    const int target = m_target->findData(spec.target);
    m_target->setCurrentIndex(target >= 0 ? target : 0);
    m_isolated->setChecked(spec.isolated);
    m_fdLimit->setValue(spec.fdLimit);
    m_fromForm = true;
    validateForm();
}

lab::SweepSpec MainWindow::spec(QString *problem) const
{
    lab::SweepSpec spec = lab::SweepSpec::defaults();
    QString error;
    if (!lab::parseSizeList(m_sizes->text(), &spec.sizes, &error))
        spec.sizes.clear();
    spec.mode = m_mode->currentText();
    spec.serverThreads = m_threads->value();
    spec.requests = static_cast<quint64>(m_requests->value());
    spec.concurrency = m_concurrency->value();
    spec.keepAlive = m_keepAlive->isChecked();
    spec.target = m_target->currentData().toString();
    spec.isolated = m_isolated->isChecked();
    spec.fdLimit = m_fdLimit->value();
    if (error.isEmpty())
        error = spec.validate();
    if (problem)
        *problem = error;
    return spec;
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
        out.name = tr("%1 over %2").arg(spec().label(), lab::formatSizeList(spec().sizes));
        out.targets = {spec(&error)};
        out.repetitions = m_repetitions->value();
    } else {
        out = m_experiment;
        error = m_specError;
    }
    if (problem)
        *problem = error;
    return out;
}

bool MainWindow::loadSpecFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    lab::ExperimentSpec spec;
    QStringList problems;
    const QByteArray text = file.readAll();
    if (!lab::ExperimentSpec::parse(text, QFileInfo(path).fileName(), &spec, &problems)) {
        // Shown in the editor with its problems, so that it can be fixed there.
        m_tabs->setCurrentWidget(m_specEditor->parentWidget());
        m_specEditor->setPlainText(QString::fromUtf8(text));
        checkSpecText();
        *error = tr("%1 cannot run: %2").arg(path, problems.join(u'\n'));
        return false;
    }
    if (spec.name.isEmpty())
        spec.name = QFileInfo(path).completeBaseName();
    setExperiment(spec);
    if (!path.startsWith(u':'))
        remember(path);
    return true;
}

bool MainWindow::loadPreset(const QString &name, QString *error)
{
    if (!QFile::exists(QStringLiteral(":/presets/%1.json").arg(name))) {
        *error = tr("there is no preset '%1'").arg(name);
        return false;
    }
    return loadSpecFile(QStringLiteral(":/presets/%1.json").arg(name), error);
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

void MainWindow::updateTargetFields()
{
    // Mode, separate process and fd limit belong to the built-in server.
    const bool builtin = m_target->currentData().toString() == u"builtin" && !isRunning();
    m_mode->setEnabled(builtin);
    m_isolated->setEnabled(builtin);
    m_fdLimit->setEnabled(builtin);
}

void MainWindow::validateForm()
{
    m_form->setVisible(m_fromForm);
    m_specNote->setVisible(!m_fromForm);
    m_useForm->setVisible(!m_fromForm);
    updateTargetFields();
    QString problem;
    const lab::ExperimentSpec current = experiment(&problem);
    if (!m_fromForm) {
        int points = 0;
        for (const auto &t : current.expanded())
            points += int(t.sizes.size());
        m_specNote->setText(tr("<b>%1</b><br>%2 targets, %3 points per repetition, %4 "
                               "repetitions. Edit it in the Spec tab.")
                                .arg(current.name.toHtmlEscaped())
                                .arg(current.expanded().size())
                                .arg(points)
                                .arg(current.repetitions));
    }
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_run->setEnabled(problem.isEmpty() && !isRunning());
    m_run->setToolTip(problem);
    if (!problem.isEmpty() || isRunning())
        return;
    // The editor shows what Run would run, unless the user is typing in it.
    if (m_fromForm || !m_specEditor->hasFocus()) {
        m_settingText = true;
        m_specEditor->setPlainText(QString::fromUtf8(current.toJson()));
        m_settingText = false;
        m_specProblems->clear();
    }
    // Before a run the bar tells how many points it will measure ("0 of 14 points").
    if (m_progress->value() <= 0) {
        int points = 0;
        for (const auto &t : current.expanded())
            points += int(t.sizes.size());
        m_progress->setRange(0, points * current.repetitions);
    }
}

void MainWindow::specEdited()
{
    if (!m_settingText)
        m_specCheck->start();
}

// The editor's text, checked as the lab checks it: problems listed with their place, or the
// experiment Run will run.
void MainWindow::checkSpecText()
{
    lab::ExperimentSpec spec;
    QStringList problems;
    m_specProblems->clear();
    if (lab::ExperimentSpec::parse(m_specEditor->toPlainText().toUtf8(), QStringLiteral("spec"),
                                   &spec, &problems)) {
        m_specError.clear();
        if (spec.name.isEmpty())
            spec.name = tr("edited spec");
        m_experiment = spec;
        m_fromForm = false;
    } else {
        m_specProblems->addItems(problems);
        m_specError = problems.size() == 1
                          ? tr("the spec has 1 problem: see the Spec tab")
                          : tr("the spec has %1 problems: see the Spec tab").arg(problems.size());
        m_fromForm = false;
    }
    validateForm();
}

QStringList MainWindow::specProblems() const
{
    QStringList out;
    for (int i = 0; i < m_specProblems->count(); ++i)
        out << m_specProblems->item(i)->text();
    return out;
}

QString MainWindow::statusMessage() const
{
    return m_current->text();
}

QString MainWindow::logText() const
{
    return m_log->toPlainText();
}

bool MainWindow::isRunning() const
{
    return m_controller->isRunning();
}

bool MainWindow::isPaused() const
{
    return m_controller->isPaused();
}

void MainWindow::setDatabase(const QString &path)
{
    m_database = path;
    refreshHistory();
}

void MainWindow::refreshHistory()
{
    lab::ResultStore store;
    QString error;
    if (m_database.isEmpty() || !QFile::exists(m_database) || !store.open(m_database, &error)) {
        m_history->setExperiments({});
        if (!error.isEmpty())
            statusBar()->showMessage(error, 10000);
        return;
    }
    m_history->setExperiments(store.experiments());
}

bool MainWindow::startRun()
{
    QString problem;
    const lab::ExperimentSpec spec = experiment(&problem);
    if (!problem.isEmpty() || isRunning())
        return false;
    m_points.clear();
    m_overlay.clear();
    m_overlayId = 0;
    m_compare->setRowCount(0);
    m_model->clear();
    QList<quint64> sizes;
    for (const auto &t : spec.expanded())
        for (quint64 size : t.sizes)
            if (!sizes.contains(size))
                sizes << size;
    std::sort(sizes.begin(), sizes.end());
    m_chart->clear(sizes);
    m_timeline->setPoints({});
    m_latency->setPoints({});
    m_rate->setPoints({});
    m_process->setPoints({});
    m_fdTypes->setPoints({});
    m_log->clear();
    m_progress->setValue(0);
    m_clock.start();
    appendLog(tr("run: %1").arg(spec.name));
    m_controller->start(spec, m_database);
    m_shownName = spec.name;
    m_shownTitle = spec.name;
    m_shownSpec = spec.toJson();
    m_shownMachine = lab::machineFacts();
    m_liveSerial = 0;
    m_lastFinishedStart = -1;
    m_liveTimer->start();
    setRunning(true);
    return true;
}

void MainWindow::pauseRun()
{
    if (!isRunning() || isPaused())
        return;
    m_controller->pause();
    m_pause->setText(tr("Resume"));
    m_current->setText(tr("Pausing after %1…").arg(m_pointLabel));
}

void MainWindow::resumeRun()
{
    if (!isPaused())
        return;
    m_controller->resume();
    m_pause->setText(tr("Pause"));
    m_current->setText(tr("Measuring %1").arg(m_pointLabel));
}

void MainWindow::cancelRun()
{
    if (!isRunning())
        return;
    m_current->setText(tr("Cancelling…"));
    m_controller->cancel();
}

void MainWindow::setRunning(bool running)
{
    for (QWidget *w : std::initializer_list<QWidget *>{
             m_sizes, m_target, m_mode, m_isolated, m_fdLimit, m_threads, m_requests, m_concurrency,
             m_keepAlive, m_repetitions, m_useForm, m_specEditor})
        w->setEnabled(!running);
    m_specEditor->setReadOnly(running);
    updateTargetFields();
    m_cancel->setEnabled(running);
    m_pause->setEnabled(running);
    m_pause->setText(tr("Pause"));
    validateForm();
}

void MainWindow::appendLog(const QString &line)
{
    m_log->appendPlainText(line);
}

void MainWindow::onStarted(qint64 experiment, int total)
{
    m_runningId = experiment;
    m_progress->setRange(0, total);
    if (experiment)
        appendLog(tr("kept as experiment %1 in %2").arg(experiment).arg(m_database));
    refreshHistory();
}

void MainWindow::onPointStarted(int index, const QString &target, quint64 sizeBytes, int repetition)
{
    m_pointLabel = tr("%1 at %2, repetition %3 (point %4 of %5)")
                       .arg(target, lab::formatSize(sizeBytes))
                       .arg(repetition + 1)
                       .arg(index + 1)
                       .arg(m_progress->maximum());
    if (!isPaused())
        m_current->setText(tr("Measuring %1").arg(m_pointLabel));
}

void MainWindow::applyLive(const lab::LiveFeed::Update &update)
{
    // A point whose result has arrived is drawn whole already.
    if (update.serial == 0 || update.startedAtMicros <= m_lastFinishedStart)
        return;
    if (update.serial != m_liveSerial) {
        m_liveSerial = update.serial;
        m_liveStart = update.startedAtMicros;
        m_liveFds.clear();
        m_liveSlots.clear();
        m_liveRate = 0;
    }
    if (update.client.empty() && update.server.empty())
        return;
    for (const auto &s : update.server)
        if (s.alive)
            m_liveFds.append({double(s.atMicros), double(s.total)});
    // The client threads sample on one 100 ms grid: a slot sums them.
    constexpr qint64 period = 100'000;
    for (const auto &t : update.client) {
        auto &slot = m_liveSlots[(t.endMicros + period / 2) / period];
        slot.first += t.completed;
        slot.second = std::max<qint64>(slot.second, t.intervalMicros);
    }
    QList<QPointF> rate;
    rate.reserve(m_liveSlots.size());
    for (auto it = m_liveSlots.cbegin(); it != m_liveSlots.cend(); ++it)
        if (it->second > 0)
            rate.append({double(m_liveStart + it.key() * period),
                         double(it->first) * 1e6 / double(it->second)});
    if (!rate.isEmpty())
        m_liveRate = rate.last().y();
    const QString target = update.target;
    m_timeline->setLive(target, m_liveFds);
    m_rate->setLive(target, rate);
    if (!isPaused())
        m_current->setText(tr("Measuring %1: %2 requests/s now")
                               .arg(m_pointLabel)
                               .arg(QLocale().toString(m_liveRate, 'f', 0)));
}

namespace {

// What the window keeps of a point: everything but the latency histogram of each 100 ms client
// sample (the point's own histogram stays; the database has the rest). A 10-minute run is then
// megabytes, not a hundred of them per copy.
lab::PointResult slim(lab::PointResult point)
{
    for (auto &sample : point.clientSamples)
        sample.latency = client::LatencyHistogram();
    return point;
}

} // namespace

void MainWindow::onPointFinished(const lab::PointResult &finished)
{
    const lab::PointResult point = slim(finished);
    if (m_runningId)
        m_history->countPoint(m_runningId, point.dnf);
    m_lastFinishedStart = point.startedAtMicros;
    m_points << point;
    m_chart->addPoint(point);
    m_model->addPoint(point);
    m_timeline->addPoint(point); // one series more, not all of them again
    m_latency->setPoints(m_points);
    m_rate->addPoint(point);
    m_process->setPoints(m_points);
    m_fdTypes->addPoint(point);
    QString line = tr("[%1/%2] %3, %4, repetition %5: ")
                       .arg(point.index + 1)
                       .arg(m_progress->maximum())
                       .arg(point.target, lab::formatSize(point.sizeBytes))
                       .arg(point.repetition + 1);
    line += point.dnf ? tr("DNF, %1").arg(point.reason)
                      : tr("%1 KiB/s").arg(point.kibPerSecond(), 0, 'f', 2);
    if (!point.dnf && !point.reason.isEmpty())
        line += QStringLiteral(" (") + point.reason + u')';
    if (point.serverEmfile > 0)
        line += tr("; the server met EMFILE %1 times").arg(point.serverEmfile);
    appendLog(line);
    if (point.dnf)
        statusBar()->showMessage(
            tr("%1 at %2: DNF, %3")
                .arg(point.target, lab::formatSize(point.sizeBytes), point.reason),
            10000);
}

void MainWindow::onProgress(int done, int total, qint64 remainingMs)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    if (done < total && remainingMs >= 0)
        m_progress->setFormat(
            tr("%v of %m points, about %1 left").arg(formatDuration(remainingMs)));
    else
        m_progress->setFormat(tr("%v of %m points"));
    if (isPaused())
        m_current->setText(
            tr("Paused after %1 of %2 points: Resume to go on").arg(done).arg(total));
}

void MainWindow::onFinished(const QString &status, const QString &reason)
{
    m_liveTimer->stop();
    setRunning(false);
    m_progress->setFormat(tr("%v of %m points"));
    if (status == u"done")
        m_current->setText(tr("Done: %1 points in %2.")
                               .arg(m_points.size())
                               .arg(formatDuration(m_clock.elapsed())));
    else if (status == u"cancelled")
        m_current->setText(tr("Cancelled after %1 points; they are kept.").arg(m_points.size()));
    else
        m_current->setText(tr("Failed: %1").arg(reason));
    appendLog(m_current->text());
    if (!reason.isEmpty())
        statusBar()->showMessage(reason);
    refreshHistory();
    Q_EMIT runFinished(
        status == u"done" && !m_points.isEmpty() &&
        !std::all_of(m_points.begin(), m_points.end(), [](const auto &p) { return p.dnf; }));
}

void MainWindow::showPoints(const QList<lab::PointResult> &points, QString title)
{
    m_shownTitle = title;
    m_points = points;
    m_model->clear();
    QList<quint64> sizes;
    for (const auto &p : points)
        if (!sizes.contains(p.sizeBytes))
            sizes << p.sizeBytes;
    std::sort(sizes.begin(), sizes.end());
    m_chart->clear(sizes);
    for (const auto &p : points) {
        m_chart->addPoint(p);
        m_model->addPoint(p);
    }
    m_timeline->setPoints(points);
    m_latency->setPoints(points);
    m_rate->setPoints(points);
    m_process->setPoints(points);
    m_fdTypes->setPoints(points);
    // An overlaid run: its lines beside these, and the ratio at each size.
    m_comparison = {};
    m_compare->setRowCount(0);
    if (m_overlayId) {
        for (lab::PointResult p : m_overlay) {
            p.target = tr("%1 (#%2)").arg(p.target).arg(m_overlayId);
            m_chart->addPoint(p);
        }
        m_comparison = lab::RunComparison::of(points, m_overlay);
        m_compare->setHorizontalHeaderItem(
            3, new QTableWidgetItem(tr("KiB/s (#%1)").arg(m_overlayId)));
        for (const auto &row : m_comparison.rows) {
            const int r = m_compare->rowCount();
            m_compare->insertRow(r);
            const QStringList cells{
                row.target, lab::formatSize(row.sizeBytes),
                row.kibThis > 0 ? QLocale().toString(row.kibThis, 'f', 2) : tr("DNF"),
                row.kibOther > 0 ? QLocale().toString(row.kibOther, 'f', 2) : tr("DNF"),
                row.dnf ? QStringLiteral("–") : QLocale().toString(row.ratio(), 'f', 3)};
            for (int c = 0; c < cells.size(); ++c) {
                auto *item = new QTableWidgetItem(cells[c]);
                if (c >= 2)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_compare->setItem(r, c, item);
            }
        }
        title += tr(", overlaid with experiment %1").arg(m_overlayId);
    }
    m_current->setText(tr("Showing %1: %2 points.").arg(title).arg(points.size()));
}

bool MainWindow::overlayExperiment(qint64 id, QString *error)
{
    if (m_points.isEmpty()) {
        *error = tr("show or run an experiment first, then overlay another on it");
        return false;
    }
    lab::ResultStore store;
    if (!store.open(m_database, error))
        return false;
    const QList<lab::PointResult> points = store.points(id, error);
    if (points.isEmpty()) {
        if (error->isEmpty())
            *error = tr("experiment %1 has no points in %2").arg(id).arg(m_database);
        return false;
    }
    m_overlay = points;
    m_overlayId = id;
    showPoints(m_points, m_shownTitle);
    return true;
}

void MainWindow::clearOverlay()
{
    m_overlay.clear();
    m_overlayId = 0;
    showPoints(m_points, m_shownTitle);
}

bool MainWindow::showExperiment(qint64 id, QString *error)
{
    lab::ResultStore store;
    if (!store.open(m_database, error))
        return false;
    QList<lab::PointResult> points = store.points(id, error);
    if (points.isEmpty()) {
        if (error->isEmpty())
            *error = tr("experiment %1 has no points in %2").arg(id).arg(m_database);
        return false;
    }
    for (auto &p : points)
        p = slim(p);
    const auto *e = m_history->experiment(id);
    m_overlay.clear();
    m_overlayId = 0;
    m_shownName = e ? e->name : QString();
    m_shownSpec = e ? e->spec : QByteArray();
    m_shownMachine = e ? e->machine : QJsonObject();
    showPoints(points, tr("experiment %1 (%2, %3)")
                           .arg(id)
                           .arg(e ? e->name : QString(), e ? e->status : QString()));
    return true;
}

bool MainWindow::openResults(const QString &path, QString *error)
{
    if (path.endsWith(QStringLiteral(".json"))) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = tr("cannot read %1: %2").arg(path, file.errorString());
            return false;
        }
        lab::ResultBundle bundle;
        QString why;
        if (!lab::ResultBundle::fromJson(file.readAll(), &bundle, &why)) {
            *error = tr("%1: %2").arg(path, why);
            return false;
        }
        m_shownName = bundle.name;
        m_shownSpec = bundle.spec;
        m_shownMachine = bundle.machine;
        showPoints(bundle.points, bundle.name);
        remember(path);
        return true;
    }
    if (!QFile::exists(path)) {
        *error = tr("%1 does not exist: give a results database or a bundle.json").arg(path);
        return false;
    }
    setDatabase(path);
    lab::ResultStore store;
    if (!store.open(path, error))
        return false;
    remember(path);
    const auto experiments = store.experiments(error);
    if (experiments.isEmpty()) {
        if (error->isEmpty())
            *error = tr("%1 holds no experiments yet").arg(path);
        return false;
    }
    return showExperiment(experiments.last().id, error);
}

QStringList MainWindow::chartNames()
{
    return {QStringLiteral("throughput"), QStringLiteral("fds"), QStringLiteral("latency"),
            QStringLiteral("rate"), QStringLiteral("process")};
}

bool MainWindow::showTab(const QString &name)
{
    const int index = int((chartNames() << QStringLiteral("spec") << QStringLiteral("log")
                                        << QStringLiteral("compare"))
                              .indexOf(name));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index);
    return true;
}

QString MainWindow::currentChartName() const
{
    const int index = m_tabs->currentIndex();
    return index >= 0 && index < chartNames().size() ? chartNames()[index]
                                                     : QStringLiteral("throughput");
}

bool MainWindow::exportChart(const QString &chart, const QString &path, QString *error,
                             qreal scale) const
{
    QChartView *view = chart == u"fds"       ? m_timeline->view()
                       : chart == u"latency" ? m_latency->view()
                       : chart == u"rate"    ? m_rate->view()
                       : chart == u"process" ? m_process->view()
                                             : m_chart->view();
    if (!chartNames().contains(chart)) {
        *error = tr("there is no chart '%1' (%2)").arg(chart, chartNames().join(u", "));
        return false;
    }
    // A chart in a tab not shown yet has no size of its own: it takes the shown tab's.
    if (!view->isVisible())
        view->resize(m_tabs->currentWidget()->size().expandedTo(QSize(800, 500)));
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
               ? chartfile::writeSvg(view, path, error)
               : chartfile::writePng(view, path, error, scale);
}

bool MainWindow::exportChartPng(const QString &path, QString *error) const
{
    return exportChart(QStringLiteral("throughput"), path, error);
}

bool MainWindow::exportCsv(const QString &path, QString *error) const
{
    return lab::writeTextFile(path, lab::formatCsv(m_model->points()), error);
}

void MainWindow::exportChartInteractive(const QString &format)
{
    const QString chart = currentChartName();
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart"), chart + u'.' + format,
        format == u"svg" ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    // PNG at twice the pixels: sharp on High-DPI screens and in print.
    if (!exportChart(chart, path, &error, 2))
        QMessageBox::warning(this, tr("Export Chart"), error);
    else
        statusBar()->showMessage(tr("Chart written to %1").arg(path), 5000);
}

void MainWindow::exportCsvInteractive()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Data"), QStringLiteral("results.csv"), tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !exportCsv(path, &error))
        QMessageBox::warning(this, tr("Export Data"), error);
    else if (!path.isEmpty())
        statusBar()->showMessage(tr("Data written to %1").arg(path), 5000);
}

void MainWindow::openSpecInteractive()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Spec"), QString(),
                                                      tr("Experiment specs (*.json)"));
    QString error;
    if (!path.isEmpty() && !loadSpecFile(path, &error))
        QMessageBox::warning(this, tr("Open Spec"), error);
}

void MainWindow::openResultsInteractive()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Results"), QFileInfo(m_database).absolutePath(),
                                     tr("Results (*.db *.json);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !openResults(path, &error))
        QMessageBox::warning(this, tr("Open Results"), error);
}

bool MainWindow::exportChartData(const QString &chart, const QString &path, QString *error) const
{
    QString text;
    if (chart == u"throughput")
        text = lab::formatSummaryCsv(m_points);
    else if (chart == u"fds" || chart == u"rate" || chart == u"process")
        text = lab::formatTimelineCsv(m_points);
    else if (chart == u"latency")
        text = m_latency->dataCsv();
    else {
        *error = tr("there is no chart '%1' (%2)").arg(chart, chartNames().join(u", "));
        return false;
    }
    return lab::writeTextFile(path, text, error);
}

bool MainWindow::exportBundle(const QString &path, QString *error) const
{
    if (m_points.isEmpty()) {
        *error = tr("nothing to export yet: run an experiment or open one");
        return false;
    }
    const lab::ResultBundle bundle{m_shownName, m_shownSpec, m_shownMachine, m_points};
    return lab::writeTextFile(path, QString::fromUtf8(bundle.toJson()), error);
}

QString MainWindow::tableTsv() const
{
    return lab::formatSeedTsv(m_points);
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        return openResults(path, error);
    // A bundle holds points; a spec does not.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    return root.contains(QStringLiteral("points")) ? openResults(path, error)
                                                   : loadSpecFile(path, error);
}

void MainWindow::remember(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(absolute);
    m_recent.prepend(absolute);
    while (m_recent.size() > 8)
        m_recent.removeLast();
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
    if (isRunning())
        statusBar()->showMessage(tr("A run is going on: drop files once it ends"), 5000);
    else if (!openFile(path, &error))
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
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("form/spec"), QString::fromUtf8(spec().toJson()));
    settings.setValue(QStringLiteral("form/repetitions"), m_repetitions->value());
    settings.setValue(QStringLiteral("recent"), m_recent);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    m_repetitions->setValue(settings.value(QStringLiteral("form/repetitions"), 1).toInt());
    m_recent = settings.value(QStringLiteral("recent")).toStringList();
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
    if (isRunning() && isVisible() && QApplication::platformName() != u"offscreen" &&
        QMessageBox::question(this, tr("Stop the run?"),
                              tr("An experiment is running. Stop it and close? The points "
                                 "measured so far are kept.")) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    m_controller->cancel();
    saveSettings();
    event->accept();
}

} // namespace servelab::ui
