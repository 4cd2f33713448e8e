#include "mainwindow.h"

#include "jsonhighlighter.h"
#include "lab/externalserver.h"
#include "lab/resultexport.h"
#include "lab/sizelist.h"
#include "resultstablemodel.h"
#include "servelab_config.h"
#include "server/servermode.h"
#include "sweepcontroller.h"
#include "throughputchart.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

// A rough share of the sweep's work for the ETA: bytes moved plus a fixed cost per request.
double workOf(quint64 size, quint64 requests)
{
    return double(requests) * (double(size) + 64.0 * 1024);
}

QString formatDuration(qint64 ms)
{
    const qint64 s = (ms + 500) / 1000;
    return s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                   : QStringLiteral("%1 s").arg(s);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_controller(new SweepController(this)), m_chart(new ThroughputChart),
      m_model(new ResultsTableModel(this)), m_table(new QTableView), m_specView(new QPlainTextEdit)
{
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

    m_specView->setReadOnly(true);
    m_specView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_highlighter = attachJsonHighlighter(m_specView->document());

    auto *tabs = new QTabWidget;
    tabs->addTab(throughput, tr("Throughput"));
    tabs->addTab(m_specView, tr("Spec"));

    auto *splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(createSettingsPanel());
    splitter->addWidget(tabs);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);
    createMenus();
    statusBar()->addPermanentWidget(new QLabel(machineFacts()));

    connect(m_controller, &SweepController::pointStarted, this, &MainWindow::onPointStarted);
    connect(m_controller, &SweepController::pointFinished, this, &MainWindow::onPointFinished);
    connect(m_controller, &SweepController::finished, this, &MainWindow::onFinished);
    connect(m_controller, &SweepController::failed, this, &MainWindow::onFailed);

    setSpec(lab::SweepSpec::defaults());
    resize(1200, 760);
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
    auto *experiment = new QGroupBox(tr("Experiment"));
    experiment->setLayout(form);

    m_run = new QPushButton(tr("Run"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
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
    panel->setMinimumWidth(280);

    connect(m_run, &QPushButton::clicked, this, &MainWindow::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelRun);
    connect(m_sizes, &QLineEdit::textChanged, this, &MainWindow::validateForm);
    for (auto *spin : {m_threads, m_requests, m_concurrency})
        connect(spin, &QSpinBox::valueChanged, this, &MainWindow::validateForm);
    connect(m_keepAlive, &QCheckBox::toggled, this, &MainWindow::validateForm);
    connect(m_mode, &QComboBox::currentTextChanged, this, &MainWindow::validateForm);
    connect(m_target, &QComboBox::currentIndexChanged, this, &MainWindow::validateForm);
    connect(m_isolated, &QCheckBox::toggled, this, &MainWindow::validateForm);
    connect(m_fdLimit, &QSpinBox::valueChanged, this, &MainWindow::validateForm);
    return panel;
}

void MainWindow::createMenus()
{
    auto *file = menuBar()->addMenu(tr("&File"));
    auto *png =
        file->addAction(tr("Export Chart as &PNG…"), this, &MainWindow::exportChartInteractive);
    png->setShortcut(QKeySequence(tr("Ctrl+E")));
    file->addAction(tr("Export Data as &CSV…"), this, &MainWindow::exportCsvInteractive);
    file->addSeparator();
    auto *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    auto *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ServeLab"), this, [this] {
        QMessageBox::about(
            this, tr("About ServeLab"),
            tr("<b>ServeLab %1</b><br>A performance lab for static file serving.<br><br>"
               "Qt %2<br>Syntax highlighting: %3")
                .arg(QStringLiteral(SERVELAB_VERSION), QString::fromLatin1(qVersion()),
                     m_highlighter));
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
    updateTargetFields();
    QString problem;
    const auto current = spec(&problem);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_run->setEnabled(problem.isEmpty() && !isRunning());
    m_run->setToolTip(problem);
    if (problem.isEmpty() && !isRunning()) {
        m_specView->setPlainText(QString::fromUtf8(current.toJson()));
        // Before a run the bar tells how many points the form describes ("0 of 14 points").
        if (m_progress->value() <= 0)
            m_progress->setRange(0, static_cast<int>(current.sizes.size()));
    }
}

QString MainWindow::statusMessage() const
{
    return m_current->text();
}

bool MainWindow::isRunning() const
{
    return m_controller->isRunning();
}

bool MainWindow::startRun()
{
    QString problem;
    const auto spec = this->spec(&problem);
    if (!problem.isEmpty() || isRunning())
        return false;
    m_running = spec;
    m_model->clear();
    m_chart->clear(spec.sizes);
    m_progress->setRange(0, static_cast<int>(spec.sizes.size()));
    m_progress->setValue(0);
    m_workDone = 0;
    m_clock.start();
    setRunning(true);
    m_controller->start(spec);
    return true;
}

void MainWindow::cancelRun()
{
    m_current->setText(tr("Cancelling…"));
    m_controller->cancel();
}

void MainWindow::setRunning(bool running)
{
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_sizes, m_target, m_mode, m_isolated, m_fdLimit,
                                          m_threads, m_requests, m_concurrency, m_keepAlive})
        w->setEnabled(!running);
    updateTargetFields();
    m_cancel->setEnabled(running);
    validateForm();
}

void MainWindow::onPointStarted(int index, quint64 sizeBytes)
{
    double total = 0;
    for (quint64 size : m_running.sizes)
        total += workOf(size, m_running.requests);
    QString eta;
    if (m_workDone > 0) {
        const double left = (total - m_workDone) / m_workDone * double(m_clock.elapsed());
        eta = tr(", about %1 left").arg(formatDuration(qint64(left)));
    }
    m_current->setText(tr("Measuring %1 (point %2 of %3)%4")
                           .arg(lab::formatSize(sizeBytes))
                           .arg(index + 1)
                           .arg(m_running.sizes.size())
                           .arg(eta));
}

void MainWindow::onPointFinished(const lab::PointResult &point)
{
    m_workDone += workOf(point.sizeBytes, m_running.requests);
    m_chart->addPoint(point);
    m_model->addPoint(point);
    m_progress->setValue(point.index + 1);
    if (point.dnf)
        statusBar()->showMessage(
            tr("%1: DNF, %2").arg(lab::formatSize(point.sizeBytes), point.reason), 10000);
}

void MainWindow::onFinished(bool cancelled)
{
    setRunning(false);
    m_current->setText(cancelled ? tr("Cancelled after %1 points.").arg(m_model->rowCount())
                                 : tr("Done: %1 points in %2.")
                                       .arg(m_model->rowCount())
                                       .arg(formatDuration(m_clock.elapsed())));
    Q_EMIT runFinished(!cancelled);
}

void MainWindow::onFailed(const QString &reason)
{
    setRunning(false);
    m_current->setText(tr("Failed: %1").arg(reason));
    statusBar()->showMessage(reason);
    Q_EMIT runFinished(false);
}

bool MainWindow::exportChartPng(const QString &path, QString *error) const
{
    return m_chart->exportPng(path, error);
}

bool MainWindow::exportCsv(const QString &path, QString *error) const
{
    return lab::writeTextFile(path, lab::formatCsv(m_model->points()), error);
}

void MainWindow::exportChartInteractive()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart"), QStringLiteral("throughput.png"), tr("PNG images (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportChartPng(path, &error))
        QMessageBox::warning(this, tr("Export Chart"), error);
    else if (!path.isEmpty())
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

} // namespace servelab::ui
