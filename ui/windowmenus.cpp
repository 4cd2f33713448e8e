// SPDX-License-Identifier: Apache-2.0
#include "windowmenus.h"

#include "lab/results/buildinfo.h"
#include "lab/spec/specsource.h"

#include "historydock.h"
#include "pngexportdialog.h"
#include "resultsview.h"
#include "servelab_config.h"
#include "session.h"
#include "windowactions.h"

#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include <functional>

namespace servelab::ui {

namespace {

using FileAction = std::function<bool(const QString &path, QString *error)>;

// A file asked for, then `act` on it: a failure shows the writer's or reader's reason, a
// success (with `done` set) a line in the status bar. The dialog opens where
// fileDialogStart() says.
void withFile(QMainWindow *w, bool save, const QString &title, const QString &start,
              const QString &filter, const FileAction &act, const QString &done = {})
{
    const QString from = fileDialogStart(start);
    const QString path = save ? QFileDialog::getSaveFileName(w, title, from, filter)
                              : QFileDialog::getOpenFileName(w, title, from, filter);
    if (path.isEmpty())
        return;
    rememberFileFolder(path);
    QString error;
    if (!act(path, &error))
        QMessageBox::warning(w, title, error);
    else if (!done.isEmpty())
        w->statusBar()->showMessage(done.arg(path), 5000);
}

void buildFileMenu(QMainWindow *w, WindowActions *a, Session *s, ResultsView *results)
{
    auto *file = w->menuBar()->addMenu(QObject::tr("&File"));
    file->addAction(QObject::tr("&New Experiment…"), QKeySequence::New, w,
                    [a] { a->openWizard(a->experiment()); });
    file->addAction(QObject::tr("&Open Spec…"), QKeySequence::Open, w, [w, s] {
        withFile(w, false, QObject::tr("Open Spec"), QString(),
                 QObject::tr("Experiment specs (*.json)"),
                 [s](const QString &path, QString *error) { return s->loadSpec(path, error); });
    });
    // Each named by what it reproduces; its name (as `servelab-cli run NAME` takes it) beside.
    auto *presets = file->addMenu(QObject::tr("&Presets"));
    presets->setObjectName(QStringLiteral("presetsMenu"));
    presets->setToolTipsVisible(true);
    for (const auto &preset : lab::SpecSource::presets()) {
        QAction *action =
            presets->addAction(QStringLiteral("%1  (%2)").arg(preset.description, preset.name), w,
                               [name = preset.name, a] { a->openPreset(name); });
        action->setToolTip(QObject::tr("servelab-cli run %1").arg(preset.name));
    }
    file->addAction(QObject::tr("Open &Results…"), w, [w, s] {
        withFile(w, false, QObject::tr("Open Results"), QFileInfo(s->database()).absolutePath(),
                 QObject::tr("Results (*.db *.json);;All files (*)"),
                 [s](const QString &path, QString *error) { return s->openResults(path, error); });
    });
    auto *recent = file->addMenu(QObject::tr("Open Rece&nt"));
    QObject::connect(recent, &QMenu::aboutToShow, w, [w, recent, s] {
        recent->clear();
        for (const QString &path : s->recentFiles())
            recent->addAction(path, w, [w, path, s] {
                QString error;
                if (!s->openFile(path, &error))
                    QMessageBox::warning(w, QObject::tr("Open Recent"), error);
            });
        if (s->recentFiles().isEmpty())
            recent->addAction(QObject::tr("(nothing yet)"))->setEnabled(false);
    });
    file->addSeparator();
    // The chart of the tab shown. PNG: its size and scale asked first (as shown, 2×: sharp on
    // High-DPI screens and in print).
    file->addAction(QObject::tr("Export Chart as &PNG…"), QKeySequence(QObject::tr("Ctrl+E")), w,
                    [w, a] {
                        const QString chart = a->currentChartName();
                        PngExportDialog ask(a->chartSize(chart), w);
                        if (ask.exec() != QDialog::Accepted)
                            return;
                        withFile(
                            w, true, QObject::tr("Export Chart"), chart + QStringLiteral(".png"),
                            QObject::tr("PNG images (*.png)"),
                            [chart, size = ask.chartSize(), scale = ask.scale(),
                             a](const QString &path, QString *error) {
                                return a->exportChart(chart, path, error, scale, size);
                            },
                            QObject::tr("Chart written to %1"));
                    });
    file->addAction(QObject::tr("Export Chart as &SVG…"), w, [w, a] {
        const QString chart = a->currentChartName();
        withFile(
            w, true, QObject::tr("Export Chart"), chart + QStringLiteral(".svg"),
            QObject::tr("SVG images (*.svg)"),
            [chart, a](const QString &path, QString *error) {
                return a->exportChart(chart, path, error);
            },
            QObject::tr("Chart written to %1"));
    });
    file->addAction(QObject::tr("Export Chart &Data as CSV…"), w, [w, results, a] {
        const QString chart = a->currentChartName();
        withFile(
            w, true, QObject::tr("Export Chart Data"), chart + QStringLiteral(".csv"),
            QObject::tr("CSV files (*.csv)"),
            [results, chart](const QString &path, QString *error) {
                return results->exportChartData(chart, path, error);
            },
            QObject::tr("Chart data written to %1"));
    });
    file->addAction(QObject::tr("Export Data as &CSV…"), w, [w, s] {
        withFile(
            w, true, QObject::tr("Export Data"), QStringLiteral("results.csv"),
            QObject::tr("CSV files (*.csv)"),
            [s](const QString &path, QString *error) { return s->exportCsv(path, error); },
            QObject::tr("Data written to %1"));
    });
    file->addAction(QObject::tr("Export Experiment as &Bundle…"), w, [w, s] {
        withFile(
            w, true, QObject::tr("Export Bundle"), QStringLiteral("bundle.json"),
            QObject::tr("Bundles (*.json)"),
            [s](const QString &path, QString *error) { return s->exportBundle(path, error); },
            QObject::tr("Bundle written to %1"));
    });
    file->addSeparator();
    file->addAction(QObject::tr("&Quit"), QKeySequence::Quit, w, &QWidget::close);
}

} // namespace

QString fileDialogStart(const QString &start)
{
    const QString folder =
        QSettings().value(QStringLiteral("files/lastFolder"), QDir::homePath()).toString();
    return QFileInfo(start).isAbsolute() ? start : QDir(folder).filePath(start);
}

void rememberFileFolder(const QString &chosen)
{
    QSettings().setValue(QStringLiteral("files/lastFolder"), QFileInfo(chosen).absolutePath());
}

void buildWindowMenus(QMainWindow *w, Session *s, WindowActions *a, const WindowParts &parts)
{
    buildFileMenu(w, a, s, parts.results);
    auto *edit = w->menuBar()->addMenu(QObject::tr("&Edit"));
    edit->addAction(QObject::tr("&Copy Table (TSV)"), QKeySequence(QObject::tr("Ctrl+Shift+C")), w,
                    [w, s] {
                        QGuiApplication::clipboard()->setText(s->tableTsv());
                        w->statusBar()->showMessage(
                            QObject::tr("The table is on the clipboard: paste it into a "
                                        "spreadsheet"),
                            5000);
                    });

    auto *run = w->menuBar()->addMenu(QObject::tr("&Run"));
    run->addAction(QObject::tr("&Run"), QKeySequence(QObject::tr("Ctrl+R")), w,
                   [a] { a->startRun(); });
    run->addAction(QObject::tr("&Pause / Resume"), QKeySequence(QObject::tr("Ctrl+P")), s,
                   [s] { s->isPaused() ? s->resumeRun() : s->pauseRun(); });
    run->addAction(QObject::tr("&Cancel"), QKeySequence(QObject::tr("Ctrl+.")), s,
                   &Session::cancelRun);

    // What a user may have closed or wants out of the charts' way.
    auto *view = w->menuBar()->addMenu(QObject::tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    QAction *panelShown = view->addAction(QObject::tr("&Experiment Panel"));
    panelShown->setCheckable(true);
    panelShown->setChecked(true);
    panelShown->setShortcut(QKeySequence(QObject::tr("Ctrl+Shift+E")));
    QObject::connect(panelShown, &QAction::toggled, parts.settingsPanel, &QWidget::setVisible);
    QAction *history = parts.history->toggleViewAction();
    history->setText(QObject::tr("Run &History"));
    history->setShortcut(QKeySequence(QObject::tr("Ctrl+Shift+H")));
    view->addAction(history);

    auto *help = w->menuBar()->addMenu(QObject::tr("&Help"));
    help->addAction(QObject::tr("ServeLab &Help"), QKeySequence::HelpContents, w,
                    [a] { a->showHelp(); });
    help->addAction(QObject::tr("&About ServeLab"), w, [w, s] {
        const auto info = lab::BuildInfo::current();
        QString qt = info.qtRunning;
        if (info.qtBuilt != info.qtRunning)
            qt += QObject::tr(" (built against %1)").arg(info.qtBuilt);
        QMessageBox::about(
            w, QObject::tr("About ServeLab"),
            QObject::tr("<b>ServeLab %1</b><br>A performance lab for static file serving.<br><br>"
                        "Git revision: %2<br>Qt: %3<br>Syntax highlighting: %4<br>io_uring: %5"
                        "<br>Results database: %6")
                .arg(info.version, info.revision.toHtmlEscaped(), qt,
                     info.syntaxHighlighting.toHtmlEscaped(), info.uring.toHtmlEscaped(),
                     s->database().toHtmlEscaped()));
    });
}

} // namespace servelab::ui
