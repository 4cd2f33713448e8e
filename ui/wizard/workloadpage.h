// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace servelab::ui {

// The files: their sizes (with the usual lists a click away), their bytes, how many of each
// size, where they live, and the transport they travel over (http, https and its handshake
// policies: one series each).
class WorkloadPage : public WizardPage
{
    Q_OBJECT
public:
    explicit WorkloadPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;

private:
    QComboBox *m_presets;
    QLineEdit *m_sizes;
    QComboBox *m_content;
    QSpinBox *m_files;
    QLineEdit *m_root;
    QComboBox *m_transport; // its data: the spec's "transport" list
};

} // namespace servelab::ui
