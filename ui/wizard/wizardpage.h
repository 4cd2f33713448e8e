// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"

#include <QWizardPage>

class QLabel;

namespace servelab::ui {

// A page of the experiment wizard: shows its part of a spec, writes it back, and says what is
// wrong with it while the user types (Next stays disabled with that reason shown).
class WizardPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardPage(QWidget *parent = nullptr);

    virtual void load(const lab::ExperimentSpec &spec) = 0;
    // Writes this page's part into `spec` (into every target for the shared settings).
    virtual void apply(lab::ExperimentSpec &spec) const = 0;
    // Empty when the page is right.
    virtual QString problem() const = 0;

    bool isComplete() const override;

protected:
    // Call when a field changed: updates the reason shown and Next.
    void changed();
    // The reason label, for the page's layout (at its bottom).
    QLabel *problemLabel() const { return m_problem; }

private:
    QLabel *m_problem;
};

} // namespace servelab::ui
