// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

#include "client/loadmodel.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace servelab::ui {

class FieldSpinBox;

// The load: ab's closed model (n requests, c at once, keep-alive) or wrk's duration model (d
// seconds over c connections and t threads), with the equivalent command line shown as it is
// typed.
class ClientPage : public WizardPage
{
    Q_OBJECT
public:
    explicit ClientPage(QWidget *parent = nullptr);

    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;
    QString equivalent() const; // "ab -n 200 -c 1" or "wrk -d 10s -c 96 -t 8"

private:
    client::LoadModel model() const;
    QList<int> concurrencies(QString *why) const;

    QComboBox *m_model;
    QStackedWidget *m_forms;
    FieldSpinBox *m_requests;
    QLineEdit *m_concurrency;
    QCheckBox *m_keepAlive;
    FieldSpinBox *m_seconds;
    FieldSpinBox *m_connections;
    FieldSpinBox *m_threads;
    FieldSpinBox *m_timeout;
    QLabel *m_equivalent;
};

} // namespace servelab::ui
