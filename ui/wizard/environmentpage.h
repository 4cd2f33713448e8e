// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QCheckBox;
class QLineEdit;

namespace servelab::ui {

class FieldSpinBox;

// How each point is measured: repetitions (for confidence intervals), warm-up and cool-down,
// the per-point deadline, an optional sweep over one server option, and whether (and at which
// sizes) the server is profiled with perf.
class EnvironmentPage : public WizardPage
{
    Q_OBJECT
public:
    explicit EnvironmentPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;

private:
    FieldSpinBox *m_repetitions;
    FieldSpinBox *m_warmup;
    FieldSpinBox *m_cooldown;
    FieldSpinBox *m_deadline;
    QLineEdit *m_sweepOption;
    QLineEdit *m_sweepValues;
    QCheckBox *m_profile;
    QLineEdit *m_profileSizes;
};

} // namespace servelab::ui
