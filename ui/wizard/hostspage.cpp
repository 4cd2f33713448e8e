// SPDX-License-Identifier: Apache-2.0
#include "hostspage.h"

#include "remote/hostsfile.h"
#include "remote/remotetarget.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace servelab::ui {

HostsPage::HostsPage(QWidget *parent)
    : WizardPage(parent), m_file(new QLineEdit), m_summary(new QLabel)
{
    setTitle(tr("Hosts"));
    setSubTitle(tr("Where it runs: on this machine, or the server on one host and the load "
                   "from others, reached over ssh."));
    m_file->setObjectName(QStringLiteral("hostsFile"));
    m_file->setPlaceholderText(tr("none: everything on this machine"));
    m_file->setToolTip(tr("A hosts file (JSON): the server host and its address, the load "
                          "hosts and their weights. servelab-cli hosts check FILE tries them."));
    auto *browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &HostsPage::browse);
    connect(m_file, &QLineEdit::textChanged, this, &HostsPage::update);
    m_summary->setObjectName(QStringLiteral("hostsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *row = new QHBoxLayout;
    row->addWidget(m_file, 1);
    row->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Hosts file"), row);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addStretch();
    layout->addWidget(problemLabel());
    update();
}

void HostsPage::load(const lab::ExperimentSpec &spec)
{
    m_targets = spec.expanded();
    m_file->setText(spec.hosts);
    update();
}

void HostsPage::apply(lab::ExperimentSpec &spec) const
{
    spec.hosts = m_file->text().trimmed();
}

QString HostsPage::problem() const
{
    return m_problem;
}

void HostsPage::setTargets(const QList<lab::SweepSpec> &targets)
{
    m_targets = targets;
    update();
}

QString HostsPage::summary() const
{
    return m_summary->text();
}

void HostsPage::browse()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Hosts File"), m_file->text(),
                                                      tr("Hosts files (*.json)"));
    if (!path.isEmpty())
        m_file->setText(path);
}

// The file read again as typed: what it names, or what is wrong (remote::HostsFile's words,
// with its line and field), or the first target a server host cannot run.
void HostsPage::update()
{
    m_problem.clear();
    const QString path = m_file->text().trimmed();
    if (path.isEmpty()) {
        m_summary->setText(tr("The servers and the load run on this machine."));
        return changed();
    }
    QString why;
    const auto hosts = remote::HostsFile::read(path, &why);
    if (!hosts) {
        m_summary->clear();
        m_problem = why;
        return changed();
    }
    QStringList load;
    for (qsizetype i = 0; i < hosts->load.size(); ++i)
        load << tr("%1 (weight %2, %3)")
                    .arg(hosts->load[i].host)
                    .arg(hosts->load[i].weight)
                    .arg(hosts->load[i].via);
    m_summary->setText(tr("Server: %1, reached by the load hosts at %2 (%3).\nLoad: %4.\n"
                          "Try them first: servelab-cli hosts check %5")
                           .arg(hosts->server.host, hosts->server.address, hosts->server.via,
                                load.join(QStringLiteral(", ")), path));
    for (const lab::SweepSpec &target : m_targets)
        if (const QString cannot = remote::RemoteTarget::unsupported(target); !cannot.isEmpty()) {
            m_problem = cannot;
            break;
        }
    changed();
}

} // namespace servelab::ui
