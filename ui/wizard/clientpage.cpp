// SPDX-License-Identifier: Apache-2.0
#include "clientpage.h"

#include "fieldspinbox.h"
#include "lab/spec/clientrules.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace servelab::ui {

ClientPage::ClientPage(QWidget *parent)
    : WizardPage(parent), m_model(new QComboBox), m_forms(new QStackedWidget),
      m_requests(new FieldSpinBox(lab::SpecFields::requests)), m_concurrency(new QLineEdit),
      m_keepAlive(new QCheckBox), m_seconds(new FieldSpinBox(lab::SpecFields::seconds)),
      m_connections(new FieldSpinBox(lab::SpecFields::concurrency)),
      m_threads(new FieldSpinBox(lab::SpecFields::clientThreads)),
      m_timeout(new FieldSpinBox(lab::SpecFields::timeoutMs)), m_equivalent(new QLabel)
{
    namespace F = lab::SpecFields;
    constexpr auto label = lab::FieldNaming::Label;
    setTitle(tr("Client"));
    setSubTitle(tr("How the load is made. Each point is one run of this client."));
    m_model->addItem(tr("Closed: n requests, c at a time (ab)"), int(client::LoadModel::Closed));
    m_model->addItem(tr("Duration: d seconds over c connections (wrk)"),
                     int(client::LoadModel::Duration));
    m_requests->setToolTip(tr("Requests per point: ab -n"));
    m_concurrency->setObjectName(QStringLiteral("concurrency"));
    m_concurrency->setText(QStringLiteral("1"));
    m_concurrency->setToolTip(tr("Requests at a time: ab -c. A list (1,10,100) runs every target "
                                 "at each"));
    m_keepAlive->setText(tr("Keep connections alive (ab -k)"));
    auto *closed = new QWidget;
    auto *closedForm = new QFormLayout(closed);
    closedForm->addRow(F::requests.name(label), m_requests);
    closedForm->addRow(F::concurrency.name(label), m_concurrency);
    closedForm->addRow(QString(), m_keepAlive);

    m_seconds->setToolTip(tr("Seconds per point: wrk -d"));
    m_connections->setObjectName(QStringLiteral("connections"));
    m_connections->setValue(96);
    m_connections->setToolTip(tr("Connections, kept alive: wrk -c"));
    m_threads->setObjectName(QStringLiteral("clientThreads"));
    m_threads->setValue(8);
    m_threads->setToolTip(tr("Client threads: wrk -t"));
    auto *duration = new QWidget;
    auto *durationForm = new QFormLayout(duration);
    durationForm->addRow(F::seconds.name(label), m_seconds);
    durationForm->addRow(F::concurrency.name(label), m_connections);
    durationForm->addRow(F::clientThreads.name(label), m_threads);
    m_forms->addWidget(closed);
    m_forms->addWidget(duration);

    m_timeout->setSuffix(tr(" ms"));
    m_timeout->setToolTip(tr("Connect and each response: ab -s"));
    m_equivalent->setObjectName(QStringLiteral("equivalent"));
    m_equivalent->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Model"), m_model);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_forms);
    auto *timeout = new QFormLayout;
    timeout->addRow(F::timeoutMs.name(label), m_timeout);
    layout->addLayout(timeout);
    layout->addWidget(m_equivalent);
    layout->addStretch();
    layout->addWidget(problemLabel());

    connect(m_model, &QComboBox::currentIndexChanged, m_forms, &QStackedWidget::setCurrentIndex);
    connect(m_model, &QComboBox::currentIndexChanged, this, &ClientPage::changed);
    connect(m_concurrency, &QLineEdit::textChanged, this, &ClientPage::changed);
    connect(m_keepAlive, &QCheckBox::toggled, this, &ClientPage::changed);
    for (QSpinBox *spin : {m_requests, m_seconds, m_connections, m_threads, m_timeout})
        connect(spin, &QSpinBox::valueChanged, this, &ClientPage::changed);
    connect(this, &QWizardPage::completeChanged, this, [this] {
        m_equivalent->setText(tr("The same load from a shell: %1").arg(equivalent()));
    });
}

client::LoadModel ClientPage::model() const
{
    return client::LoadModel(m_model->currentData().toInt());
}

QList<int> ClientPage::concurrencies(QString *why) const
{
    const lab::SpecField &field = lab::SpecFields::concurrency;
    const QString name = field.name(lab::FieldNaming::Label);
    QList<int> out;
    for (const QString &part : m_concurrency->text().split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int c = part.trimmed().toInt(&ok);
        if (!ok || !field.contains(c)) {
            *why = tr("%1 %2, not '%3'").arg(name, field.wants(), part.trimmed());
            return {};
        }
        if (!out.contains(c))
            out << c;
    }
    if (out.isEmpty())
        *why = tr("%1: give a number, or a list as 1,10,100").arg(name);
    return out;
}

QString ClientPage::equivalent() const
{
    QString why;
    const QList<int> levels = concurrencies(&why);
    const QString c = levels.isEmpty() ? QStringLiteral("?") : QString::number(levels.last());
    if (model() == client::LoadModel::Duration)
        return QStringLiteral("wrk -d %1s -c %2 -t %3 URL")
            .arg(m_seconds->value())
            .arg(m_connections->value())
            .arg(m_threads->value());
    return QStringLiteral("ab -n %1 -c %2%3 -s %4 URL")
        .arg(m_requests->value())
        .arg(c, m_keepAlive->isChecked() ? QStringLiteral(" -k") : QString())
        .arg(std::max(1, m_timeout->value() / 1000));
}

void ClientPage::load(const lab::ExperimentSpec &spec)
{
    if (spec.targets.isEmpty())
        return;
    const lab::SweepSpec &t = spec.targets.first();
    m_model->setCurrentIndex(std::max(0, m_model->findData(int(t.model))));
    m_requests->setFieldValue(qint64(t.requests));
    QStringList levels;
    for (int c : spec.concurrencies)
        levels << QString::number(c);
    m_concurrency->setText(levels.isEmpty() ? QString::number(t.concurrency) : levels.join(u','));
    m_keepAlive->setChecked(t.keepAlive);
    m_seconds->setValue(std::max(1, t.durationMs / 1000));
    m_connections->setValue(t.concurrency);
    m_threads->setValue(t.clientThreads);
    m_timeout->setValue(t.timeoutMs);
    changed();
}

void ClientPage::apply(lab::ExperimentSpec &spec) const
{
    QString why;
    const QList<int> levels = concurrencies(&why);
    const bool duration = model() == client::LoadModel::Duration;
    spec.concurrencies = !duration && levels.size() > 1 ? levels : QList<int>();
    for (auto &t : spec.targets) {
        t.model = model();
        t.timeoutMs = m_timeout->value();
        if (duration) {
            t.durationMs = m_seconds->value() * 1000;
            t.concurrency = m_connections->value();
            t.clientThreads = m_threads->value();
            t.keepAlive = true;
        } else {
            t.requests = quint64(m_requests->value());
            t.concurrency = levels.isEmpty() ? 1 : *std::max_element(levels.begin(), levels.end());
            t.keepAlive = m_keepAlive->isChecked();
        }
    }
}

QString ClientPage::problem() const
{
    QString why;
    const QList<int> levels = concurrencies(&why);
    if (!why.isEmpty())
        return why;
    constexpr auto label = lab::FieldNaming::Label;
    if (model() == client::LoadModel::Duration)
        return lab::ClientRules::check({false, 1, m_connections->value(), m_threads->value()},
                                       label)
            .text(label);
    const int most = *std::max_element(levels.begin(), levels.end());
    return lab::ClientRules::check({true, m_requests->value(), most, 1}, label).text(label);
}

} // namespace servelab::ui
