// SPDX-License-Identifier: Apache-2.0
#pragma once

class QWidget;

namespace servelab::ui {

class HistoryDock;
class MainWindow;
class ResultsView;
class RunPanel;

// The parts of the window the menus act on beside MainWindow's public API.
struct WindowParts
{
    ResultsView *results;   // Export Data
    RunPanel *runPanel;     // Run, Pause, Resume, Cancel
    QWidget *settingsPanel; // View → Experiment Panel
    HistoryDock *history;   // View → Run History
};

// The window's menus, and the file dialogs behind them: File (new, open, presets, recent,
// exports, quit), Edit, Run, View (the experiment panel, the run history) and Help (F1: the
// help page; About).
void buildWindowMenus(MainWindow *window, const WindowParts &parts);

} // namespace servelab::ui
