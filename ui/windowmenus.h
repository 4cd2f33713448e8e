// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace servelab::ui {

class MainWindow;

// The window's menus, and the file dialogs behind them, built on MainWindow's public API:
// File (new, open, presets, recent, exports, quit), Edit, Run, View (the experiment panel, the
// run history) and Help (F1: the help page; About).
void buildWindowMenus(MainWindow *window);

} // namespace servelab::ui
