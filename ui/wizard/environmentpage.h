// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QLineEdit;
class QSpinBox;

namespace servelab::ui {

// How each point is measured: repetitions (for confidence intervals), warm-up and cool-down,
// the per-point deadline, and an optional sweep over one server option.
class EnvironmentPage : public WizardPage
{
    Q_OBJECT
public:
    explicit EnvironmentPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;

private:
    QSpinBox *m_repetitions;
    QSpinBox *m_warmup;
    QSpinBox *m_cooldown;
    QSpinBox *m_deadline;
    QLineEdit *m_sweepOption;
    QLineEdit *m_sweepValues;
};

} // namespace servelab::ui
