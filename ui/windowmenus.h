// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace servelab::ui {

class MainWindow;

// The window's menus, and the file dialogs behind them, built on MainWindow's public API:
// File (new, open, presets, recent, exports, quit), Edit, Run and Help.
void buildWindowMenus(MainWindow *window);

} // namespace servelab::ui
