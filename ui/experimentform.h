// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/sweepspec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace servelab::ui {

class FieldSpinBox;

// The window's quick form: one target (a built-in mode or a real server), the sizes, ab's
// settings and the repetitions. Says when anything changed; spec() says what is wrong.
class ExperimentForm : public QWidget
{
    Q_OBJECT
public:
    explicit ExperimentForm(QWidget *parent = nullptr);

    void setSpec(const lab::SweepSpec &spec);
    // The spec the form describes, or an empty list of sizes with *problem set.
    lab::SweepSpec spec(QString *problem = nullptr) const;
    int repetitions() const;
    void setRepetitions(int repetitions);
    void setLocked(bool locked); // during a run

Q_SIGNALS:
    void changed();

private:
    void updateTargetFields();

    QLineEdit *m_sizes;
    QComboBox *m_target;
    QComboBox *m_mode;
    QCheckBox *m_isolated;
    QSpinBox *m_fdLimit;
    QSpinBox *m_threads;
    FieldSpinBox *m_requests;
    QSpinBox *m_concurrency;
    QCheckBox *m_keepAlive;
    QSpinBox *m_repetitions;
    bool m_locked = false;
};

} // namespace servelab::ui
