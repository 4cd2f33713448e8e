// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"

#include <QSplitter>

class QListWidget;
class QPlainTextEdit;
class QTimer;

namespace servelab::ui {

// The spec as JSON, highlighted and editable: what is typed is checked as the lab checks it
// once typing pauses, each problem listed with its place (a click jumps there), and a spec
// that reads is handed on.
class SpecEditor : public QSplitter
{
    Q_OBJECT
public:
    explicit SpecEditor(QWidget *parent = nullptr);

    // Shows `json` without checking it (what Run would run, set by the window).
    void showSpec(const QString &json);
    // Puts `json` in as if it had been typed, and checks it at once.
    void editSpec(const QString &json);
    QStringList problems() const;
    bool isBeingEdited() const;  // the user is typing in it
    void setLocked(bool locked); // read-only during a run
    QString highlighterName() const { return m_highlighter; }

Q_SIGNALS:
    // After a check: the spec, or the problems (one line each) when it does not read.
    void checked(const servelab::lab::ExperimentSpec &spec, const QStringList &problems);

private:
    void check();

    QPlainTextEdit *m_text;
    QListWidget *m_problems;
    QTimer *m_pause;
    QString m_highlighter;
    bool m_settingText = false;
};

} // namespace servelab::ui
