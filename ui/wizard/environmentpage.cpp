// SPDX-License-Identifier: Apache-2.0
#include "environmentpage.h"

#include "fieldspinbox.h"
#include "lab/spec/serveroptiontable.h"
#include "lab/spec/sizelist.h"
#include "lab/spec/specfield.h"
#include "server/serveroptions.h"

#include <QCheckBox>
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
      m_sweepOption(new QLineEdit), m_sweepValues(new QLineEdit),
      m_profile(new QCheckBox(tr("Profile the server with perf"))), m_profileSizes(new QLineEdit)
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
    m_profile->setObjectName(QStringLiteral("profile"));
    m_profileSizes->setObjectName(QStringLiteral("profileSizes"));
    m_profile->setToolTip(tr("In the last repetition each profiled point's load runs once more "
                             "with perf attached: on-CPU and off-CPU stacks, lock waits, in the "
                             "Profile tab. The point's own figures stay unprofiled."));
    m_profileSizes->setPlaceholderText(tr("every size, or some: 12,1M"));
    m_profileSizes->setEnabled(false);
    connect(m_profile, &QCheckBox::toggled, m_profileSizes, &QWidget::setEnabled);
    connect(m_profile, &QCheckBox::toggled, this, &EnvironmentPage::changed);
    connect(m_profileSizes, &QLineEdit::textChanged, this, &EnvironmentPage::changed);

    auto *form = new QFormLayout;
    form->addRow(F::repetitions.name(label), m_repetitions);
    form->addRow(F::warmupRequests.name(label), m_warmup);
    form->addRow(F::cooldownMs.name(label), m_cooldown);
    form->addRow(F::pointDeadlineMs.name(label), m_deadline);
    form->addRow(tr("Sweep over option"), m_sweepOption);
    form->addRow(tr("Its values"), m_sweepValues);
    form->addRow(m_profile);
    form->addRow(tr("Profiled sizes"), m_profileSizes);
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
    const lab::ProfileRequest profile =
        spec.targets.isEmpty() ? lab::ProfileRequest{} : spec.targets.first().profile;
    m_profile->setChecked(profile.enabled);
    m_profileSizes->setText(lab::formatSizeList(profile.sizes));
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
        if (!m_profile->isChecked()) {
            t.profile.enabled = false;
            continue;
        }
        lab::ProfileRequest next;
        QString unused; // problem() said it first
        lab::ProfileRequest::parseList(m_profileSizes->text().trimmed(), &next, &unused);
        if (t.profile.enabled) { // the frequency and off_cpu the spec had stay
            next.frequency = t.profile.frequency;
            next.offCpu = t.profile.offCpu;
        }
        t.profile = next;
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
    if (lab::ProfileRequest profile; m_profile->isChecked())
        if (QString why;
            !lab::ProfileRequest::parseList(m_profileSizes->text().trimmed(), &profile, &why))
            return why;
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
