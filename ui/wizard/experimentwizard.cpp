// SPDX-License-Identifier: Apache-2.0
#include "experimentwizard.h"

#include "clientpage.h"
#include "environmentpage.h"
#include "hostspage.h"
#include "reviewpage.h"
#include "targetspage.h"
#include "workloadpage.h"

#include "lab/spec/specsource.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>

namespace servelab::ui {

ExperimentWizard::ExperimentWizard(QWidget *parent)
    : QWizard(parent), m_targets(new TargetsPage), m_workload(new WorkloadPage),
      m_client(new ClientPage), m_environment(new EnvironmentPage), m_hosts(new HostsPage),
      m_review(new ReviewPage)
{
    setWindowTitle(tr("New Experiment"));
    setPage(Targets, m_targets);
    setPage(Workload, m_workload);
    setPage(Client, m_client);
    setPage(Environment, m_environment);
    setPage(Hosts, m_hosts);
    setPage(Review, m_review);
    setOption(QWizard::HaveCustomButton1);
    setButtonText(QWizard::CustomButton1, tr("&Save…"));
    setButtonText(QWizard::FinishButton, tr("&Run"));
    connect(this, &QWizard::customButtonClicked, this, [this](int which) {
        if (which == QWizard::CustomButton1)
            saveInteractive();
    });
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        button(QWizard::CustomButton1)->setVisible(id == Review);
        if (id == Hosts) // what the server host will have to run, as the pages before made it
            m_hosts->setTargets(builtSpec().expanded());
    });
    // Any preset as a start, named by what it reproduces: every page is filled from it.
    m_presets = new QComboBox;
    m_presets->setObjectName(QStringLiteral("wizardPresets"));
    m_presets->addItem(tr("Start from a preset…"));
    for (const auto &preset : lab::SpecSource::presets()) {
        m_presets->addItem(preset.description, preset.name);
        m_presets->setItemData(m_presets->count() - 1, tr("servelab-cli run %1").arg(preset.name),
                               Qt::ToolTipRole);
    }
    m_presets->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_presets->setMinimumContentsLength(40);
    m_targets->setPresetChooser(m_presets);
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        const QString name = m_presets->itemData(index).toString();
        lab::SpecSource source;
        QString error;
        if (!name.isEmpty() && lab::SpecSource::read(name, &source, &error))
            setSpec(source.spec);
        m_presets->setCurrentIndex(0);
    });
    resize(720, 560);
}

void ExperimentWizard::setSpec(const lab::ExperimentSpec &spec)
{
    m_targets->load(spec);
    m_workload->load(spec);
    m_client->load(spec);
    m_environment->load(spec);
    m_hosts->load(spec);
    m_review->load(spec);
}

lab::ExperimentSpec ExperimentWizard::builtSpec() const
{
    lab::ExperimentSpec spec;
    m_targets->apply(spec);
    m_workload->apply(spec);
    m_client->apply(spec);
    m_environment->apply(spec);
    m_hosts->apply(spec);
    return spec;
}

lab::ExperimentSpec ExperimentWizard::spec() const
{
    lab::ExperimentSpec spec;
    m_review->apply(spec);
    return spec;
}

void ExperimentWizard::saveInteractive()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Spec"), QStringLiteral("experiment.json"), tr("Experiment specs (*.json)"));
    QString error;
    if (!path.isEmpty() && !m_review->save(path, &error))
        QMessageBox::warning(this, tr("Save Spec"), error);
}

} // namespace servelab::ui
