#pragma once

#include "lab/pointresult.h"
#include "lab/sweepspec.h"

#include <QElapsedTimer>
#include <QMainWindow>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace servelab::ui {

class ResultsTableModel;
class SweepController;
class ThroughputChart;

// The first window: set up a sweep, run it in a worker thread, watch KiB/s against file size
// grow point by point, export the chart (PNG) and the data (CSV).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void setSpec(const lab::SweepSpec &spec);
    // The spec the form describes, or an empty list of sizes with *problem set.
    lab::SweepSpec spec(QString *problem = nullptr) const;
    bool isRunning() const;

    ThroughputChart *chart() const { return m_chart; }
    ResultsTableModel *results() const { return m_model; }
    QString highlighterName() const { return m_highlighter; }
    QString statusMessage() const; // the line under the progress bar

    bool exportChartPng(const QString &path, QString *error) const;
    bool exportCsv(const QString &path, QString *error) const;

public Q_SLOTS:
    bool startRun();
    void cancelRun();

Q_SIGNALS:
    void runFinished(bool ok);

private:
    QWidget *createSettingsPanel();
    void createMenus();
    void validateForm();
    void updateTargetFields();
    void onPointStarted(int index, quint64 sizeBytes);
    void onPointFinished(const lab::PointResult &point);
    void onFinished(bool cancelled);
    void onFailed(const QString &reason);
    void setRunning(bool running);
    void exportChartInteractive();
    void exportCsvInteractive();
    QString machineFacts() const;

    SweepController *m_controller;
    ThroughputChart *m_chart;
    ResultsTableModel *m_model;
    QTableView *m_table;
    QPlainTextEdit *m_specView;
    QString m_highlighter;
    QLineEdit *m_sizes;
    QComboBox *m_target;
    QComboBox *m_mode;
    QCheckBox *m_isolated;
    QSpinBox *m_fdLimit;
    QSpinBox *m_threads;
    QSpinBox *m_requests;
    QSpinBox *m_concurrency;
    QCheckBox *m_keepAlive;
    QLabel *m_problem;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_current;
    lab::SweepSpec m_running;
    QElapsedTimer m_clock;
    double m_workDone = 0;
};

} // namespace servelab::ui
