// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QGroupBox>
#include <QStringList>

class QLabel;
class QPushButton;
class QTableWidget;

namespace servelab::ui {

// Seed 003's JMX console, in the window: while a point runs, the options of its built-in
// server that may change live, as they are now, editable; Apply sends the edited ones at once
// (all or none), and the server's live counters beside them. A value is checked as it is
// typed, by the option's own rule (lab::ServerOptionTable): a bad one is marked, its reason
// shown, and Apply waits for a good one; a refusal by the server stays in the panel. Each
// change is logged and marked on the live timelines at once.
class TunePanel : public QGroupBox
{
    Q_OBJECT
public:
    explicit TunePanel(QWidget *parent = nullptr);

    // The running target's options, name=value (empty: it cannot be tuned, and the panel says
    // why); nothing running: `running` false.
    void showOptions(const QStringList &nameValues, bool running);
    void showCounters(double requestsPerSecond, int threads, int fds);
    // What became of the last Apply: made (the values stay as edited) or refused (back to the
    // values before, with the reason).
    void showResult(bool made, const QString &text);
    int optionCount() const;
    QString valueOf(const QString &name) const; // as shown
    // Why the edited values cannot be sent, one line per bad one (empty: they can).
    QString problems() const { return m_problems; }

Q_SIGNALS:
    void tuneRequested(const QStringList &assignments);

private:
    QStringList edited() const;
    void checkEdits(); // as typed: marks the bad values, says why, holds Apply

    QTableWidget *m_table;
    QPushButton *m_apply;
    QLabel *m_counters;
    QLabel *m_result;
    QStringList m_shown; // name=value as the server said
    QString m_problems;
    bool m_filling = false; // the table is being filled, not edited
};

} // namespace servelab::ui
