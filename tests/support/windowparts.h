// SPDX-License-Identifier: Apache-2.0
#pragma once

// The window's parts, found as the menus and a user find them: children named after their role
// (MainWindow's comment lists the names), not handed out by MainWindow for tests.

#include "experimentsmodel.h"
#include "historydock.h"
#include "mainwindow.h"
#include "profilepanel.h"
#include "resultsview.h"
#include "runpanel.h"
#include "speceditor.h"

namespace servelab::testing {

template<typename T>
T *windowPart(const ui::MainWindow &window, const char *name)
{
    return window.findChild<T *>(QLatin1String(name));
}

inline ui::ResultsView *resultsView(const ui::MainWindow &w)
{
    return windowPart<ui::ResultsView>(w, "resultsView");
}
inline ui::RunPanel *runPanel(const ui::MainWindow &w)
{
    return windowPart<ui::RunPanel>(w, "runPanel");
}
inline ui::ProfilePanel *profilePanel(const ui::MainWindow &w)
{
    return windowPart<ui::ProfilePanel>(w, "profilePanel");
}
inline ui::SpecEditor *specEditor(const ui::MainWindow &w)
{
    return windowPart<ui::SpecEditor>(w, "specEditor");
}
inline ui::HistoryDock *historyDock(const ui::MainWindow &w)
{
    return windowPart<ui::HistoryDock>(w, "history");
}
inline ui::ExperimentsModel *history(const ui::MainWindow &w)
{
    return historyDock(w)->model();
}
inline QWidget *settingsPanel(const ui::MainWindow &w)
{
    return windowPart<QWidget>(w, "settingsPanel");
}
// nullptr once a run has begun.
inline QWidget *welcomePage(const ui::MainWindow &w)
{
    return windowPart<QWidget>(w, "welcomePage");
}

} // namespace servelab::testing
