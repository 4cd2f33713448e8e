// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace servelab::lab {
struct ClientKey;
struct ExperimentModel;
struct SweepSpec;
} // namespace servelab::lab

namespace servelab::ui {

class FieldSpinBox;

// The load: one form per client model, built from the model's row (lab::ExperimentModel) and
// the rows of the keys it takes (lab::ClientKey): ab's closed model (n requests, c at once —
// or a list of c —, keep-alive), wrk's duration, wrk2's rate, faban's ramp. The equivalent
// command line is shown as it is typed.
class ClientPage : public WizardPage
{
    Q_OBJECT
public:
    explicit ClientPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;
    QString equivalent() const; // "ab -n 200 -c 1 -s 30 URL", "wrk -d 10s -c 96 -t 8 URL", ...

private:
    struct Box
    {
        const lab::ClientKey *key;
        QWidget *widget; // FieldSpinBox, QCheckBox or QLineEdit, by the key's kind
    };
    struct Form
    {
        const lab::ExperimentModel *model = nullptr;
        QLineEdit *levels = nullptr;         // ab's: a concurrency, or a list of them
        QLineEdit *rates = nullptr;          // wrk2's: an offered rate, or a list of them
        FieldSpinBox *connections = nullptr; // the others: one number of connections (users)
        FieldSpinBox *timeout = nullptr;
        QList<Box> boxes;
    };

    QWidget *buildForm(const lab::ExperimentModel &model);
    const Form &form() const;
    // The shown form's values into `t`; the concurrency list (closed) into *levels, the
    // offered rates (rate) into *rates.
    void applyForm(lab::SweepSpec &t, QList<int> *levels, QList<qint64> *rates, QString *why) const;

    QComboBox *m_model;
    QStackedWidget *m_forms;
    QList<Form> m_modelForms;
    QLabel *m_equivalent;
    QList<lab::ClientLoad>
        m_loads; // a spec's "clients", kept through the page (the form: the first)
};

} // namespace servelab::ui
