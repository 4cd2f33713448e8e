// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

namespace servelab::ui {

// The first screen of a window with no run kept yet: the default comparison (the strategies
// side by side, run at once) and the seed presets, each with what it reproduces (opened in the
// wizard). The window takes it away once a run begins.
class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    static constexpr const char *defaultPreset = "strategies";

    explicit WelcomePage(QWidget *parent = nullptr);

Q_SIGNALS:
    void runRequested(const QString &preset);  // the default comparison: run it now
    void openRequested(const QString &preset); // a seed's preset: look at it first
};

} // namespace servelab::ui
