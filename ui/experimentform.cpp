// SPDX-License-Identifier: Apache-2.0
#include "experimentform.h"

#include "fieldspinbox.h"

#include "lab/spec/servertemplate.h"
#include "lab/spec/sizelist.h"
#include "lab/spec/specfield.h"
#include "server/eventmodel.h"
#include "server/servermode.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>

namespace servelab::ui {

ExperimentForm::ExperimentForm(QWidget *parent) : QWidget(parent)
{
    m_sizes = new QLineEdit;
    m_sizes->setToolTip(tr("File sizes, e.g. 4K,64K,1M, or 4K..32M for every doubling in between"));
    m_target = new QComboBox;
    m_target->addItem(tr("Built-in server"), QStringLiteral("builtin"));
    for (const auto &name : lab::ServerTemplate::names()) {
        m_target->addItem(name, name);
        if (lab::ServerTemplate::binaryFor(name).isEmpty()) {
            // Listed so users know it exists, but not selectable until it is installed.
            auto *model = qobject_cast<QStandardItemModel *>(m_target->model());
            if (auto *item = model ? model->item(m_target->count() - 1) : nullptr) {
                item->setEnabled(false);
                item->setToolTip(tr("%1 is not installed on this machine").arg(name));
            }
        }
    }
    m_target->setToolTip(tr("What is measured: a built-in mode, or a real server ServeLab "
                            "configures and starts on a free port"));
    m_isolated = new QCheckBox(tr("Separate process"));
    m_isolated->setToolTip(tr("Run the built-in server as a child servelab-cli serve, so that its "
                              "descriptors, threads and CPU are its own (the default). Unticked, "
                              "it runs in this window's process and its figures include the "
                              "load client's and ServeLab's own."));
    namespace F = lab::SpecFields;
    constexpr auto label = lab::FieldNaming::Label;
    m_fdLimit = new FieldSpinBox(F::fdLimit);
    m_fdLimit->setSpecialValueText(tr("inherit"));
    m_fdLimit->setToolTip(tr("ulimit -n of the server process (needs a separate process); the "
                             "seeds used 1024"));
    m_mode = new QComboBox;
    for (const auto &mode : server::availableModes()) {
        m_mode->addItem(QString::fromStdString(mode.name()));
        // What the model stands for, from its row (server/eventmodel.cpp).
        m_mode->setItemData(m_mode->count() - 1,
                            QString::fromLatin1(server::findEventModel(mode.model)->reproduces),
                            Qt::ToolTipRole);
    }
    m_threads = new FieldSpinBox(F::serverThreads);
    m_requests = new FieldSpinBox(F::requests);
    m_requests->setToolTip(tr("Requests per file size, like ab -n"));
    m_concurrency = new FieldSpinBox(F::concurrency);
    m_concurrency->setToolTip(tr("Requests in flight at once, like ab -c"));
    m_keepAlive = new QCheckBox(tr("Keep-alive (ab -k)"));
    m_repetitions = new FieldSpinBox(F::repetitions);
    m_repetitions->setToolTip(tr("Each point measured this many times: mean, deviation and a 95 % "
                                 "confidence interval"));
    auto *form = new QFormLayout;
    // A narrow panel (a 1024-wide screen) puts a label above its field rather than cutting it.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (QComboBox *choice : {m_target, m_mode}) {
        choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        choice->setMinimumContentsLength(10);
    }
    form->addRow(tr("File sizes"), m_sizes);
    form->addRow(tr("Target"), m_target);
    form->addRow(tr("Server mode"), m_mode);
    form->addRow(QString(), m_isolated);
    form->addRow(F::fdLimit.name(label), m_fdLimit);
    form->addRow(F::serverThreads.name(label), m_threads);
    form->addRow(F::requests.name(label), m_requests);
    form->addRow(F::concurrency.name(label), m_concurrency);
    form->addRow(QString(), m_keepAlive);
    form->addRow(F::repetitions.name(label), m_repetitions);
    setLayout(form);

    connect(m_sizes, &QLineEdit::textChanged, this, &ExperimentForm::changed);
    for (QSpinBox *spin : std::initializer_list<QSpinBox *>{m_threads, m_requests, m_concurrency,
                                                            m_repetitions, m_fdLimit})
        connect(spin, &QSpinBox::valueChanged, this, &ExperimentForm::changed);
    for (auto *box : {m_keepAlive, m_isolated})
        connect(box, &QCheckBox::toggled, this, &ExperimentForm::changed);
    connect(m_mode, &QComboBox::currentTextChanged, this, &ExperimentForm::changed);
    connect(m_target, &QComboBox::currentIndexChanged, this, &ExperimentForm::changed);
    connect(this, &ExperimentForm::changed, this, &ExperimentForm::updateTargetFields);
}

void ExperimentForm::setSpec(const lab::SweepSpec &spec)
{
    m_sizes->setText(lab::formatSizeList(spec.sizes));
    const int mode = m_mode->findText(spec.mode);
    if (mode >= 0)
        m_mode->setCurrentIndex(mode);
    m_threads->setValue(spec.serverThreads);
    m_requests->setFieldValue(qint64(spec.requests));
    m_concurrency->setValue(spec.concurrency);
    m_keepAlive->setChecked(spec.keepAlive);
    const int target = m_target->findData(spec.target);
    m_target->setCurrentIndex(target >= 0 ? target : 0);
    m_isolated->setChecked(spec.isolated);
    m_fdLimit->setValue(spec.fdLimit);
    updateTargetFields();
}

lab::SweepSpec ExperimentForm::spec(QString *problem) const
{
    lab::SweepSpec spec = lab::SweepSpec::defaults();
    QString error;
    if (!lab::parseSizeList(m_sizes->text(), &spec.sizes, &error))
        spec.sizes.clear();
    spec.mode = m_mode->currentText();
    spec.serverThreads = m_threads->value();
    spec.requests = static_cast<quint64>(m_requests->value());
    spec.concurrency = m_concurrency->value();
    spec.keepAlive = m_keepAlive->isChecked();
    spec.target = m_target->currentData().toString();
    spec.isolated = m_isolated->isChecked();
    spec.fdLimit = m_fdLimit->value();
    if (error.isEmpty())
        error = spec.validate();
    if (problem)
        *problem = error;
    return spec;
}

void ExperimentForm::updateTargetFields()
{
    // Mode, separate process and fd limit belong to the built-in server.
    const bool builtin = m_target->currentData().toString() == u"builtin" && !m_locked;
    m_mode->setEnabled(builtin);
    // An fd limit is the child's: with one, the separate process is not a choice.
    if (m_fdLimit->value() != 0)
        m_isolated->setChecked(true);
    m_isolated->setEnabled(builtin && m_fdLimit->value() == 0);
    m_fdLimit->setEnabled(builtin);
}

int ExperimentForm::repetitions() const
{
    return m_repetitions->value();
}

void ExperimentForm::setRepetitions(int repetitions)
{
    m_repetitions->setValue(repetitions);
}

void ExperimentForm::setLocked(bool locked)
{
    m_locked = locked;
    for (QWidget *w : std::initializer_list<QWidget *>{m_sizes, m_target, m_mode, m_isolated,
                                                       m_fdLimit, m_threads, m_requests,
                                                       m_concurrency, m_keepAlive, m_repetitions})
        w->setEnabled(!locked);
    updateTargetFields();
}

} // namespace servelab::ui
