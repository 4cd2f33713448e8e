// SPDX-License-Identifier: Apache-2.0
#include "wizardpage.h"

#include <QLabel>

namespace servelab::ui {

WizardPage::WizardPage(QWidget *parent) : QWizardPage(parent), m_problem(new QLabel)
{
    m_problem->setObjectName(QStringLiteral("pageProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
}

bool WizardPage::isComplete() const
{
    return problem().isEmpty();
}

void WizardPage::changed()
{
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    Q_EMIT completeChanged();
}

} // namespace servelab::ui
