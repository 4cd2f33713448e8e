// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QMainWindow;
class QWidget;

namespace servelab::ui {

class HistoryDock;
class ResultsView;
class Session;
class WindowActions;

// The parts of the window the menus act on, beside Session and the window's actions.
struct WindowParts
{
    ResultsView *results;   // Export Data
    QWidget *settingsPanel; // View → Experiment Panel
    HistoryDock *history;   // View → Run History
};

// The window's menus, and the file dialogs behind them: File (new, open, presets, recent,
// exports, quit), Edit, Run, View (the experiment panel, the run history) and Help (F1: the
// help page; About). Built from Session (opening, exports, the database), the window's actions
// and its parts; `window` is the menus' owner and the dialogs' parent.
// Where the menus' file dialogs open: in the folder a file was last chosen in (kept across
// starts; the home folder at first), `start` a file name proposed there; an absolute `start`
// as it is. rememberFileFolder() keeps a chosen file's folder.
QString fileDialogStart(const QString &start);
void rememberFileFolder(const QString &chosen);

void buildWindowMenus(QMainWindow *window, Session *session, WindowActions *actions,
                      const WindowParts &parts);

} // namespace servelab::ui
