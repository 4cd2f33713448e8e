// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "wizardpage.h"

class QLineEdit;
class QPushButton;
class QListWidget;
class QPlainTextEdit;

namespace servelab::ui {

// The spec the pages made, as the JSON a file would hold: highlighted, editable, checked as the
// lab checks it (each problem with its line), with what this machine will refuse listed as
// warnings (lab::Preflight, real servers not installed); Save writes it, Finish runs it.
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
    // The warnings shown (not problems: the rest runs).
    QStringList warnings() const;
    // Real servers the spec names that are not installed here, each with what to do.
    QStringList missingServers() const { return m_missing; }
    // Takes them out of the spec (the "Drop them" button).
    void dropMissingServers();

private:
    void check();

    QLineEdit *m_name;
    QPlainTextEdit *m_json;
    QListWidget *m_problems;
    QPushButton *m_drop;
    QStringList m_missing;
    lab::ExperimentSpec m_parsed;
    QStringList m_errors;
    bool m_edited = false;
    // The name follows the content (lab::experimentName) until the user types one; a loaded
    // spec's own name (a preset's) stays while its content is unchanged.
    bool m_named = false;
    QString m_loadedName;
    QByteArray m_loadedContent;
};

} // namespace servelab::ui
