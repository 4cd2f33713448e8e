// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"

#include <QWizard>

class QComboBox;

namespace servelab::ui {

class ClientPage;
class EnvironmentPage;
class HostsPage;
class ReviewPage;
class TargetsPage;
class WorkloadPage;

// New experiment, step by step: targets, workload, client, environment, hosts, and the spec
// they make for review. Opens empty or pre-filled (a preset, the experiment in the window).
class ExperimentWizard : public QWizard
{
    Q_OBJECT
public:
    enum Page
    {
        Targets,
        Workload,
        Client,
        Environment,
        Hosts,
        Review
    };

    explicit ExperimentWizard(QWidget *parent = nullptr);

    void setSpec(const lab::ExperimentSpec &spec);
    // What the pages before the review make.
    lab::ExperimentSpec builtSpec() const;
    // What Finish gives: the review page's spec, edits included.
    lab::ExperimentSpec spec() const;

    TargetsPage *targetsPage() const { return m_targets; }
    WorkloadPage *workloadPage() const { return m_workload; }
    ClientPage *clientPage() const { return m_client; }
    EnvironmentPage *environmentPage() const { return m_environment; }
    HostsPage *hostsPage() const { return m_hosts; }
    ReviewPage *reviewPage() const { return m_review; }

private:
    void saveInteractive();

    TargetsPage *m_targets;
    WorkloadPage *m_workload;
    ClientPage *m_client;
    EnvironmentPage *m_environment;
    HostsPage *m_hosts;
    ReviewPage *m_review;
    QComboBox *m_presets; // on the targets page
};

} // namespace servelab::ui
