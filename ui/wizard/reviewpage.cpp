// SPDX-License-Identifier: Apache-2.0
#include "reviewpage.h"

#include "lab/run/preflight.h"

#include "experimentwizard.h"
#include "jsonhighlighter.h"
#include "lab/results/resultexport.h"
#include "lab/spec/experimentname.h"
#include "lab/spec/servertemplate.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

// What a spec holds, its name aside.
QByteArray contentOf(lab::ExperimentSpec spec)
{
    spec.name.clear();
    return spec.toJson();
}

} // namespace

ReviewPage::ReviewPage(QWidget *parent)
    : WizardPage(parent), m_name(new QLineEdit), m_json(new QPlainTextEdit),
      m_problems(new QListWidget), m_drop(new QPushButton(tr("&Drop targets not installed")))
{
    setTitle(tr("Review"));
    setSubTitle(tr("The experiment as a spec file: edit it here if you like. Save keeps it; "
                   "Finish runs it."));
    m_json->setObjectName(QStringLiteral("reviewJson"));
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    attachJsonHighlighter(m_json->document());
    m_problems->setMaximumHeight(90);
    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_json, 1);
    layout->addWidget(m_problems);
    layout->addWidget(m_drop, 0, Qt::AlignLeft);
    layout->addWidget(problemLabel());
    m_drop->setObjectName(QStringLiteral("dropMissing"));
    m_drop->setVisible(false);
    connect(m_drop, &QPushButton::clicked, this, &ReviewPage::dropMissingServers);
    connect(m_json, &QPlainTextEdit::textChanged, this, &ReviewPage::check);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &name) {
        m_named = true;
        // The name goes into the JSON, where the rest is.
        QJsonObject root = QJsonDocument::fromJson(m_json->toPlainText().toUtf8()).object();
        if (root.isEmpty())
            return;
        root.insert(QStringLiteral("name"), name);
        m_json->setPlainText(QString::fromUtf8(QJsonDocument(root).toJson()));
    });
}

void ReviewPage::initializePage()
{
    const auto *w = qobject_cast<const ExperimentWizard *>(wizard());
    if (!w)
        return;
    lab::ExperimentSpec spec = w->builtSpec();
    if (m_named)
        spec.name = m_name->text();
    else
        spec.name = !m_loadedName.isEmpty() && contentOf(spec) == m_loadedContent
                        ? m_loadedName
                        : lab::experimentName(spec);
    m_json->setPlainText(QString::fromUtf8(spec.toJson()));
    m_name->setText(spec.name);
}

void ReviewPage::load(const lab::ExperimentSpec &spec)
{
    m_name->setText(spec.name);
    m_named = false;
    m_loadedName = spec.name;
    m_loadedContent = contentOf(spec);
}

void ReviewPage::apply(lab::ExperimentSpec &spec) const
{
    spec = m_parsed;
}

void ReviewPage::check()
{
    lab::ExperimentSpec parsed;
    m_problems->clear();
    if (lab::ExperimentSpec::parse(m_json->toPlainText().toUtf8(), QStringLiteral("spec"), &parsed,
                                   &m_errors)) {
        m_parsed = parsed;
    } else {
        m_problems->addItems(m_errors);
    }
    // Not an error (the other targets can run), but said before the run: its column would be
    // DNF.
    m_missing.clear();
    for (const lab::SweepSpec &t : m_errors.isEmpty() ? m_parsed.targets : QList<lab::SweepSpec>())
        if (const QString missing = lab::ServerTemplate::notInstalled(t.target);
            !missing.isEmpty() && !m_missing.contains(missing))
            m_missing << missing;
    // And what this machine will refuse (kernel TLS, perf, sizes not measured), before Run.
    QStringList warnings = m_missing;
    if (m_errors.isEmpty())
        warnings << lab::Preflight::warnings(m_parsed);
    for (const QString &warning : warnings)
        new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxWarning), warning,
                            m_problems);
    m_drop->setVisible(!m_missing.isEmpty());
    m_problems->setVisible(m_problems->count() > 0);
    changed();
}

QStringList ReviewPage::warnings() const
{
    QStringList out;
    for (int i = m_errors.isEmpty() ? 0 : int(m_errors.size()); i < m_problems->count(); ++i)
        out << m_problems->item(i)->text();
    return out;
}

void ReviewPage::dropMissingServers()
{
    lab::ExperimentSpec kept = m_parsed;
    kept.targets.removeIf([](const lab::SweepSpec &t) {
        return !lab::ServerTemplate::notInstalled(t.target).isEmpty();
    });
    m_json->setPlainText(QString::fromUtf8(kept.toJson()));
}

QString ReviewPage::problem() const
{
    if (m_errors.isEmpty())
        return {};
    return m_errors.size() == 1 ? tr("The spec has 1 problem, listed above")
                                : tr("The spec has %1 problems, listed above").arg(m_errors.size());
}

QString ReviewPage::text() const
{
    return m_json->toPlainText();
}

bool ReviewPage::save(const QString &path, QString *error) const
{
    return lab::writeTextFile(path, text(), error);
}

} // namespace servelab::ui
