// SPDX-License-Identifier: Apache-2.0
#include "environmentpage.h"

#include "fieldspinbox.h"
#include "lab/spec/serveroptiontable.h"
#include "lab/spec/specfield.h"
#include "server/serveroptions.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace servelab::ui {

EnvironmentPage::EnvironmentPage(QWidget *parent)
    : WizardPage(parent), m_repetitions(new FieldSpinBox(lab::SpecFields::repetitions)),
      m_warmup(new FieldSpinBox(lab::SpecFields::warmupRequests)),
      m_cooldown(new FieldSpinBox(lab::SpecFields::cooldownMs)),
      m_deadline(new FieldSpinBox(lab::SpecFields::pointDeadlineMs, 1000)),
      m_sweepOption(new QLineEdit), m_sweepValues(new QLineEdit)
{
    namespace F = lab::SpecFields;
    constexpr auto label = lab::FieldNaming::Label;
    setTitle(tr("Environment"));
    setSubTitle(tr("How each point is measured and repeated."));
    m_repetitions->setToolTip(tr("Each point this many times: mean, deviation, 95 % confidence "
                                 "interval; above 5 % variation a point is flagged noisy"));
    m_warmup->setToolTip(tr("Requests made before each point and not counted"));
    m_cooldown->setSuffix(tr(" ms"));
    m_cooldown->setToolTip(tr("Rest after each point"));
    m_deadline->setSuffix(tr(" s"));
    m_deadline->setToolTip(tr("A point still running then is DNF, and the experiment goes on"));
    m_sweepOption->setObjectName(QStringLiteral("sweepOption"));
    m_sweepValues->setObjectName(QStringLiteral("sweepValues"));
    m_sweepOption->setPlaceholderText(tr("none, or a serve option such as sendfile-threshold"));
    m_sweepValues->setPlaceholderText(tr("1,64K,1M: each builtin target once per value"));

    auto *form = new QFormLayout;
    form->addRow(F::repetitions.name(label), m_repetitions);
    form->addRow(F::warmupRequests.name(label), m_warmup);
    form->addRow(F::cooldownMs.name(label), m_cooldown);
    form->addRow(F::pointDeadlineMs.name(label), m_deadline);
    form->addRow(tr("Sweep over option"), m_sweepOption);
    form->addRow(tr("Its values"), m_sweepValues);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch();
    layout->addWidget(problemLabel());
    for (QLineEdit *edit : {m_sweepOption, m_sweepValues})
        connect(edit, &QLineEdit::textChanged, this, &EnvironmentPage::changed);
}

void EnvironmentPage::load(const lab::ExperimentSpec &spec)
{
    m_repetitions->setValue(spec.repetitions);
    if (!spec.targets.isEmpty()) {
        const lab::SweepSpec &t = spec.targets.first();
        m_warmup->setFieldValue(qint64(t.warmupRequests));
        m_cooldown->setFieldValue(t.cooldownMs);
        m_deadline->setFieldValue(t.pointDeadlineMs);
    }
    m_sweepOption->setText(spec.sweepOption);
    m_sweepValues->setText(spec.sweepValues.join(u','));
    changed();
}

void EnvironmentPage::apply(lab::ExperimentSpec &spec) const
{
    spec.repetitions = m_repetitions->value();
    spec.sweepOption = m_sweepOption->text().trimmed();
    spec.sweepValues.clear();
    for (const QString &v : m_sweepValues->text().split(u',', Qt::SkipEmptyParts))
        spec.sweepValues << v.trimmed();
    for (auto &t : spec.targets) {
        t.warmupRequests = quint64(m_warmup->value());
        t.cooldownMs = m_cooldown->value();
        t.pointDeadlineMs = m_deadline->value() * 1000;
    }
}

QString EnvironmentPage::problem() const
{
    const QString option = m_sweepOption->text().trimmed();
    const bool values = !m_sweepValues->text().trimmed().isEmpty();
    if (option.isEmpty() && values)
        return tr("Name the option the values are for, or clear them");
    if (!option.isEmpty() && !values)
        return tr("Give the values of %1 to sweep over, as 1,64K,1M").arg(option);
    static const QRegularExpression name(QStringLiteral("^[a-z][a-z0-9-]*$"));
    if (!option.isEmpty() && !name.match(option).hasMatch())
        return tr("'%1' is not a server option name (as in servelab-cli serve --help, without "
                  "the dashes)")
            .arg(option);
    // Each value as serve would read it, in serve's words ("--banana is not a server option").
    for (const QString &value : m_sweepValues->text().split(u',', Qt::SkipEmptyParts)) {
        server::ServerOptions options;
        if (QString error; !option.isEmpty() &&
                           !lab::ServerOptionTable::set(&options, option, value.trimmed(), &error))
            return error;
    }
    return {};
}

} // namespace servelab::ui
