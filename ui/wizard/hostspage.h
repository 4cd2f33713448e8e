// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QLabel;
class QLineEdit;

namespace servelab::ui {

// Where the experiment runs: on this machine (no hosts file), or across the hosts a hosts
// file names (README, "Several machines"): each target on its server host, each point's load
// split among its load hosts. Shows what the file names, and says what is wrong with it, or
// which target a server host cannot run, as it is typed.
class HostsPage : public WizardPage
{
    Q_OBJECT
public:
    explicit HostsPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;
    // The targets the earlier pages made: what the server host must be able to run.
    void setTargets(const QList<lab::SweepSpec> &targets);

    QLineEdit *fileEdit() const { return m_file; }
    QString summary() const; // what the file names, as shown

private:
    void browse();
    void update();

    QLineEdit *m_file;
    QLabel *m_summary;
    QList<lab::SweepSpec> m_targets;
    QString m_problem;
};

} // namespace servelab::ui
