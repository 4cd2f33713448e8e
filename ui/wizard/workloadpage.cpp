// SPDX-License-Identifier: Apache-2.0
#include "workloadpage.h"

#include "lab/spec/sizelist.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace servelab::ui {

WorkloadPage::WorkloadPage(QWidget *parent)
    : WizardPage(parent), m_presets(new QComboBox), m_sizes(new QLineEdit),
      m_content(new QComboBox), m_files(new QSpinBox), m_root(new QLineEdit),
      m_transport(new QComboBox)
{
    setTitle(tr("Workload"));
    setSubTitle(tr("The files served: one point per size, over http, https or HTTP/2."));
    m_transport->setObjectName(QStringLiteral("transport"));
    for (const auto &[label, list] :
         {std::pair{tr("http"), QStringList()},
          std::pair{tr("https (a handshake per connection, or per request without keep-alive)"),
                    QStringList{QStringLiteral("https")}},
          std::pair{tr("http and https side by side: what TLS costs at each size"),
                    QStringList{QStringLiteral("http"), QStringLiteral("https")}},
          std::pair{tr("https handshakes: kept alive, new for every request, resumed"),
                    QStringList{QStringLiteral("https:keepalive"), QStringLiteral("https:new"),
                                QStringLiteral("https:resume")}},
          std::pair{tr("h2c (HTTP/2 over cleartext, prior knowledge)"),
                    QStringList{QStringLiteral("h2c")}},
          std::pair{tr("HTTP/1.1 and h2c side by side: the h2 tax at each size"),
                    QStringList{QStringLiteral("http"), QStringLiteral("h2c")}},
          std::pair{tr("https and h2 side by side: the h2 tax over TLS"),
                    QStringList{QStringLiteral("https:keepalive"), QStringLiteral("h2")}}})
        m_transport->addItem(label, list);
    m_transport->setToolTip(
        tr("Each entry is a series of its own. Over https a builtin server serves a self-signed "
           "certificate made once in ServeLab's cache folder, which the client checks; sendfile "
           "over https needs kernel TLS and is DNF, with the reason, where the kernel has none. "
           "Over h2c and h2 the client's concurrency is requests in flight, its streams to a "
           "connection."));
    m_presets->addItem(tr("Choose a list…"));
    for (const auto &[label, list] :
         {std::pair{tr("4K … 32M, doubling (the seeds' table)"), QStringLiteral("4K..32M")},
          std::pair{tr("4K … 64K, small files"), QStringLiteral("4K..64K")},
          std::pair{tr("1M … 32M, large files"), QStringLiteral("1M..32M")},
          std::pair{tr("12 bytes (\"Hello world!\")"), QStringLiteral("12")}})
        m_presets->addItem(label, list);
    m_sizes->setObjectName(QStringLiteral("sizes"));
    m_sizes->setToolTip(tr("4K,64K,1M or 4K..32M for every doubling in between (K, M, G: 1024)"));
    m_content->addItem(tr("Random bytes (incompressible)"), QStringLiteral("random"));
    m_content->addItem(tr("Zeros"), QStringLiteral("zeros"));
    m_files->setRange(1, 100000);
    m_files->setToolTip(tr("Several files of each size, requested in turn: one hot file no longer "
                           "hides an open-file cache"));
    m_root->setPlaceholderText(tr("generated in ServeLab's cache folder"));

    auto *form = new QFormLayout;
    form->addRow(tr("Sizes"), m_presets);
    form->addRow(QString(), m_sizes);
    form->addRow(tr("Content"), m_content);
    form->addRow(tr("Files per size"), m_files);
    form->addRow(tr("Document root"), m_root);
    form->addRow(tr("Transport"), m_transport);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch();
    layout->addWidget(problemLabel());

    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            m_sizes->setText(m_presets->itemData(index).toString());
        m_presets->setCurrentIndex(0);
    });
    connect(m_sizes, &QLineEdit::textChanged, this, &WorkloadPage::changed);
    m_sizes->setText(QStringLiteral("4K..32M"));
}

void WorkloadPage::load(const lab::ExperimentSpec &spec)
{
    if (spec.targets.isEmpty())
        return;
    const lab::SweepSpec &t = spec.targets.first();
    m_sizes->setText(lab::formatSizeList(t.sizes));
    m_content->setCurrentIndex(std::max(0, m_content->findData(t.content)));
    m_files->setValue(t.filesPerSize);
    m_root->setText(t.root);
    // A list no entry offers is kept as it is, as an entry of its own.
    int transport = m_transport->findData(spec.transports);
    if (transport < 0) {
        m_transport->addItem(spec.transports.join(QStringLiteral(", ")), spec.transports);
        transport = m_transport->count() - 1;
    }
    m_transport->setCurrentIndex(transport);
    changed();
}

void WorkloadPage::apply(lab::ExperimentSpec &spec) const
{
    QList<quint64> sizes;
    lab::parseSizeList(m_sizes->text(), &sizes, nullptr);
    for (auto &t : spec.targets) {
        t.sizes = sizes;
        t.content = m_content->currentData().toString();
        t.filesPerSize = m_files->value();
        t.root = m_root->text().trimmed();
    }
    spec.transports = m_transport->currentData().toStringList();
}

QString WorkloadPage::problem() const
{
    QList<quint64> sizes;
    QString why;
    if (!lab::parseSizeList(m_sizes->text(), &sizes, &why))
        return tr("Sizes: %1")
            .arg(why.isEmpty() ? tr("write them like 4K,64K,1M or 4K..32M") : why);
    return {};
}

} // namespace servelab::ui
