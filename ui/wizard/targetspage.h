// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

#include <QMap>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QStackedWidget;

namespace servelab::ui {

// What is measured: built-in modes with their options, real servers found on this machine, and
// servers already running at a URL; any number of them, each added from the form above the list.
class TargetsPage : public WizardPage
{
    Q_OBJECT
public:
    explicit TargetsPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;

    // The target the form describes, or *why it is not one.
    lab::SweepSpec formTarget(QString *why) const;
    bool addFormTarget(); // false (with the reason shown) if the form is not a target
    // Replaces the selected target with the form's (edit in place); false as addFormTarget.
    bool updateSelectedTarget();
    int targetCount() const { return int(m_targets.size()); }
    // The wizard's preset chooser, shown at the top of this first page.
    void setPresetChooser(QWidget *chooser);

private:
    void refreshList();
    // The form shows `t` (a row of the list picked to edit).
    void showInForm(const lab::SweepSpec &t);
    // Why the form's target cannot go at `row` (-1: added): not a target, or one listed already.
    bool takeFormTarget(int row);

    QList<lab::SweepSpec> m_targets;
    QComboBox *m_kind;
    QStackedWidget *m_forms;
    QComboBox *m_mode;
    QSpinBox *m_threads;
    QCheckBox *m_isolated;
    QSpinBox *m_fdLimit;
    QLineEdit *m_options;
    QLineEdit *m_tune;
    QComboBox *m_external;
    QSpinBox *m_externalThreads;
    QLineEdit *m_url;
    QSpinBox *m_pid;
    QLineEdit *m_caption; // the spec's "label", for every kind
    QListWidget *m_list;
    // What is wrong with a field as typed (caption, options, tune steps), by field, and why the
    // last Add or Update was refused (a target in the list already): the latter goes with the
    // next change to the form or the list, so that it never blocks Next once out of date.
    QMap<QString, QString> m_fieldProblems;
    QString m_addProblem;
};

} // namespace servelab::ui
