// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"

#include <QSize>
#include <QString>

namespace servelab::ui {

class ExperimentWizard;
class HelpBrowser;

// What the window's menus ask of the window beyond Session and the parts they act on: the
// experiment set up and the wizard, the chart shown and its export, the help page, a run.
// MainWindow implements it; the menus (windowmenus.cpp) know nothing else of MainWindow.
class WindowActions
{
public:
    // What Run would run; *problem set if it cannot run.
    virtual lab::ExperimentSpec experiment(QString *problem = nullptr) const = 0;
    // The wizard, pre-filled with `spec` (it deletes itself when closed).
    virtual ExperimentWizard *openWizard(const lab::ExperimentSpec &spec) = 0;
    // A preset, in the wizard.
    virtual void openPreset(const QString &name) = 0;
    // The chart of the tab shown, the size it has on screen, and its export (PNG of `size` at
    // `scale`, or SVG for a .svg path).
    virtual QString currentChartName() const = 0;
    virtual QSize chartSize(const QString &chart) const = 0;
    virtual bool exportChart(const QString &chart, const QString &path, QString *error,
                             qreal scale = 1, QSize size = {}) const = 0;
    // The help page (F1), at a section (empty: the top).
    virtual HelpBrowser *showHelp(const QString &anchor = {}) = 0;
    virtual bool startRun() = 0;

protected:
    ~WindowActions() = default;
};

} // namespace servelab::ui
