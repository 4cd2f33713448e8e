// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace servelab::ui {

// The spec the pages made, as the JSON a file would hold: highlighted, editable, checked as the
// lab checks it (each problem with its line); Save writes it, Finish runs it.
class ReviewPage : public WizardPage
{
    Q_OBJECT
public:
    explicit ReviewPage(QWidget *parent = nullptr);

    void initializePage() override;
    void load(const lab::ExperimentSpec &spec) override;
    void apply(lab::ExperimentSpec &spec) const override;
    QString problem() const override;

    QString text() const;
    bool save(const QString &path, QString *error) const;

private:
    void check();

    QLineEdit *m_name;
    QPlainTextEdit *m_json;
    QListWidget *m_problems;
    lab::ExperimentSpec m_parsed;
    QStringList m_errors;
    bool m_edited = false;
};

} // namespace servelab::ui
