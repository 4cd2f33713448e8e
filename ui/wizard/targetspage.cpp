// SPDX-License-Identifier: Apache-2.0
#include "targetspage.h"

#include "fieldspinbox.h"
#include "lab/spec/serveroptiontable.h"
#include "lab/spec/servertemplate.h"
#include "lab/spec/specfield.h"
#include "server/eventmodel.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

// "chunk=81000 nodelay=off" as serve flags.
bool parseOptions(const QString &text, QStringList *arguments, QString *why)
{
    for (const QString &pair : text.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype eq = pair.indexOf(u'=');
        if (eq <= 0 || eq == pair.size() - 1) {
            *why = QObject::tr("'%1' is not an option: write name=value, as chunk=81000 "
                               "(servelab-cli serve --help lists them)")
                       .arg(pair);
            return false;
        }
        *arguments << QStringLiteral("--") + pair.left(eq) << pair.mid(eq + 1);
    }
    return true;
}

QString describe(const lab::SweepSpec &t)
{
    QString text = t.label();
    QStringList details;
    if (!t.isUrl())
        details << (t.serverThreads == 1 ? QObject::tr("1 thread")
                                         : QObject::tr("%1 threads").arg(t.serverThreads));
    if (t.fdLimit)
        details << QObject::tr("fd limit %1").arg(t.fdLimit);
    for (qsizetype i = 0; i + 1 < t.serverArguments.size(); i += 2)
        details << t.serverArguments[i].mid(2) + u'=' + t.serverArguments[i + 1];
    if (!t.tune.isEmpty())
        details << QObject::tr("tuned at %1").arg(lab::TunePlan::toText(t.tune));
    if (t.watchPid)
        details << QObject::tr("pid %1 watched").arg(t.watchPid);
    return details.isEmpty() ? text : text + QStringLiteral(" (") + details.join(u", ") + u')';
}

} // namespace

TargetsPage::TargetsPage(QWidget *parent)
    : WizardPage(parent), m_kind(new QComboBox), m_forms(new QStackedWidget), m_mode(new QComboBox),
      m_threads(new FieldSpinBox(lab::SpecFields::serverThreads)), m_isolated(new QCheckBox),
      m_fdLimit(new FieldSpinBox(lab::SpecFields::fdLimit)), m_options(new QLineEdit),
      m_tune(new QLineEdit), m_external(new QComboBox),
      m_externalThreads(new FieldSpinBox(lab::SpecFields::serverThreads)), m_url(new QLineEdit),
      m_pid(new QSpinBox), m_caption(new QLineEdit), m_list(new QListWidget)
{
    setTitle(tr("Targets"));
    setSubTitle(tr("What to measure: ServeLab's own server modes, real servers it configures "
                   "and starts, or a server already running."));
    m_kind->addItems(
        {tr("Built-in mode"), tr("Real server on this machine"), tr("Server at a URL")});

    for (const auto &mode : server::availableModes()) {
        m_mode->addItem(QString::fromStdString(mode.name()));
        // What the model stands for, from its row (server/eventmodel.cpp).
        m_mode->setItemData(m_mode->count() - 1,
                            QString::fromLatin1(server::findEventModel(mode.model)->reproduces),
                            Qt::ToolTipRole);
    }
    m_threads->setObjectName(QStringLiteral("threads"));
    m_isolated->setText(tr("Own process (servelab-cli serve)"));
    m_isolated->setChecked(lab::SweepSpec().isolated);
    m_isolated->setToolTip(tr("The server's descriptors, threads and CPU are its own (the "
                              "default). Unticked, it runs in ServeLab's process and its figures "
                              "include the load client's and ServeLab's own."));
    m_fdLimit->setSpecialValueText(tr("inherit"));
    m_fdLimit->setToolTip(tr("ulimit -n of the server process, as the seeds' 1024; implies its "
                             "own process"));
    m_options->setPlaceholderText(tr("chunk=81000 nodelay=off (servelab-cli serve options)"));
    auto *builtin = new QWidget;
    auto *builtinForm = new QFormLayout(builtin);
    builtinForm->addRow(tr("Mode"), m_mode);
    builtinForm->addRow(tr("Threads"), m_threads);
    builtinForm->addRow(QString(), m_isolated);
    builtinForm->addRow(tr("fd limit"), m_fdLimit);
    builtinForm->addRow(tr("Options"), m_options);
    m_tune->setObjectName(QStringLiteral("tune"));
    m_tune->setPlaceholderText(
        tr("5000 ms: chunk=64K; 9000 ms: max-connections=50 (in each point)"));
    m_tune->setToolTip(tr("Changes made to the server while each point runs, at their time "
                          "from its start (seed 003's live tuning); each point starts from the "
                          "options above again"));
    builtinForm->addRow(tr("Tune"), m_tune);

    for (const QString &name : lab::ServerTemplate::names())
        if (!lab::ServerTemplate::binaryFor(name).isEmpty())
            m_external->addItem(name);
    auto *external = new QWidget;
    auto *externalForm = new QFormLayout(external);
    externalForm->addRow(tr("Server"), m_external);
    externalForm->addRow(tr("Workers / threads"), m_externalThreads);
    if (m_external->count() == 0)
        externalForm->addRow(new QLabel(tr("None found: install nginx, lighttpd, apache2, h2o or "
                                           "tomcat10 to measure them.")));

    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080/files/"));
    m_pid->setRange(0, lab::SpecFields::pid.spinHigh()); // 0: none
    m_pid->setSpecialValueText(tr("none"));
    m_pid->setToolTip(tr("The server's process, to sample its descriptors, threads and CPU"));
    auto *url = new QWidget;
    auto *urlForm = new QFormLayout(url);
    urlForm->addRow(tr("URL of the folder"), m_url);
    urlForm->addRow(tr("Process to watch"), m_pid);

    m_forms->addWidget(builtin);
    m_forms->addWidget(external);
    m_forms->addWidget(url);
    m_caption->setObjectName(QStringLiteral("label"));
    m_caption->setPlaceholderText(tr("optional: what it stands for, as Coyote BIO's analogue"));
    m_caption->setToolTip(tr("Shown after the target's name in the tables and charts"));
    auto *captionForm = new QFormLayout;
    captionForm->setContentsMargins(builtinForm->contentsMargins()); // lined up with the form's
    captionForm->addRow(tr("Label"), m_caption);
    auto *add = new QPushButton(tr("&Add target"));
    add->setObjectName(QStringLiteral("addTarget"));
    auto *update = new QPushButton(tr("&Update selected"));
    update->setObjectName(QStringLiteral("updateTarget"));
    update->setToolTip(tr("Replace the target selected in the list with the form's"));
    auto *remove = new QPushButton(tr("&Remove"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(update);
    buttons->addWidget(remove);
    buttons->addStretch();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_kind);
    layout->addWidget(m_forms);
    layout->addLayout(captionForm);
    layout->addLayout(buttons);
    layout->addWidget(m_list);
    layout->addWidget(problemLabel());

    connect(m_kind, &QComboBox::currentIndexChanged, m_forms, &QStackedWidget::setCurrentIndex);
    connect(add, &QPushButton::clicked, this, &TargetsPage::addFormTarget);
    connect(update, &QPushButton::clicked, this, &TargetsPage::updateSelectedTarget);
    // A row picked in the list is shown in the form, to be changed and updated in place.
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_targets.size())
            showInForm(m_targets[row]);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_list->currentRow();
        if (row >= 0 && row < m_targets.size())
            m_targets.removeAt(row);
        m_addProblem.clear();
        refreshList();
    });
    // Any change to the form: a refused Add is out of date.
    const auto edited = [this] {
        m_addProblem.clear();
        changed();
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, edited);
    connect(m_mode, &QComboBox::currentIndexChanged, this, edited);
    connect(m_external, &QComboBox::currentIndexChanged, this, edited);
    connect(m_url, &QLineEdit::textChanged, this, edited);
    for (QSpinBox *number : {m_threads, m_fdLimit, m_externalThreads, m_pid})
        connect(number, &QSpinBox::valueChanged, this, edited);
    connect(m_isolated, &QCheckBox::toggled, this, edited);
    connect(m_caption, &QLineEdit::textChanged, this, [this, edited](const QString &text) {
        m_fieldProblems[QStringLiteral("caption")] = lab::SweepSpec::captionProblem(text.trimmed());
        edited();
    });
    // Options are checked as they are typed, with serve's words.
    connect(m_options, &QLineEdit::textChanged, this, [this, edited] {
        QString why;
        QStringList arguments;
        if (parseOptions(m_options->text(), &arguments, &why) && !arguments.isEmpty()) {
            server::ServerOptions options;
            options.mode = m_mode->currentText().toStdString();
            lab::ServerOptionTable::apply(&options, arguments, &why);
        }
        m_fieldProblems[QStringLiteral("options")] = why;
        edited();
    });
    // Tune steps, checked as they are typed, in ServerTuning's words.
    connect(m_tune, &QLineEdit::textChanged, this, [this, edited] {
        QString why;
        QList<lab::TuneStep> steps;
        lab::TunePlan::fromText(m_tune->text(), &steps, &why, m_mode->currentText());
        m_fieldProblems[QStringLiteral("tune")] = why;
        edited();
    });
    // Options and an fd limit are the child's: with either, the own process is not a choice.
    const auto needsOwnProcess = [this] {
        const bool needed = !m_options->text().trimmed().isEmpty() || m_fdLimit->value() != 0;
        if (needed)
            m_isolated->setChecked(true);
        m_isolated->setEnabled(!needed);
    };
    connect(m_options, &QLineEdit::textChanged, this, needsOwnProcess);
    connect(m_fdLimit, &QSpinBox::valueChanged, this, needsOwnProcess);
}

lab::SweepSpec TargetsPage::formTarget(QString *why) const
{
    lab::SweepSpec t = lab::SweepSpec::defaults();
    why->clear();
    switch (m_kind->currentIndex()) {
    case 0:
        t.target = QStringLiteral("builtin");
        t.mode = m_mode->currentText();
        t.serverThreads = m_threads->value();
        t.isolated = m_isolated->isChecked();
        t.fdLimit = m_fdLimit->value();
        if (parseOptions(m_options->text(), &t.serverArguments, why))
            lab::TunePlan::fromText(m_tune->text(), &t.tune, why, t.mode);
        break;
    case 1:
        if (m_external->count() == 0)
            *why = tr("no real server is installed here");
        t.target = m_external->currentText();
        t.serverThreads = m_externalThreads->value();
        break;
    default:
        t.target = QStringLiteral("url:") + m_url->text().trimmed();
        t.watchPid = m_pid->value();
        break;
    }
    t.caption = m_caption->text().trimmed();
    if (why->isEmpty())
        *why = t.validate();
    return t;
}

void TargetsPage::setPresetChooser(QWidget *chooser)
{
    static_cast<QVBoxLayout *>(layout())->insertWidget(0, chooser);
}

bool TargetsPage::takeFormTarget(int row)
{
    m_addProblem.clear();
    const lab::SweepSpec t = formTarget(&m_addProblem);
    for (qsizetype i = 0; m_addProblem.isEmpty() && i < m_targets.size(); ++i)
        if (i != row && describe(m_targets[i]) == describe(t))
            m_addProblem = tr("%1 is in the list already: change it, or pick the row to "
                              "update it")
                               .arg(describe(t));
    if (m_addProblem.isEmpty()) {
        if (row < 0)
            m_targets << t;
        else
            m_targets[row] = t;
    }
    const int shown = row < 0 ? int(m_targets.size()) - 1 : row;
    const QString refused = m_addProblem;
    refreshList();
    m_addProblem = refused; // what refreshList's own changes would clear
    if (m_addProblem.isEmpty()) {
        const QSignalBlocker quiet(m_list); // the form already shows it
        m_list->setCurrentRow(shown);
    }
    changed();
    return m_addProblem.isEmpty();
}

bool TargetsPage::addFormTarget()
{
    return takeFormTarget(-1);
}

bool TargetsPage::updateSelectedTarget()
{
    const int row = m_list->currentRow();
    if (row < 0 || row >= m_targets.size()) {
        m_addProblem = tr("Pick the target to update in the list first");
        changed();
        return false;
    }
    return takeFormTarget(row);
}

void TargetsPage::showInForm(const lab::SweepSpec &t)
{
    switch (t.kind()) {
    case lab::TargetKind::Builtin: {
        m_kind->setCurrentIndex(0);
        m_mode->setCurrentIndex(std::max(0, m_mode->findText(t.mode)));
        m_threads->setValue(t.serverThreads);
        m_fdLimit->setValue(t.fdLimit);
        QStringList pairs;
        for (qsizetype i = 0; i + 1 < t.serverArguments.size(); i += 2)
            pairs << t.serverArguments[i].mid(2) + u'=' + t.serverArguments[i + 1];
        m_options->setText(pairs.join(u' '));
        m_tune->setText(lab::TunePlan::toText(t.tune));
        m_isolated->setChecked(t.isolated);
        break;
    }
    case lab::TargetKind::Url:
        m_kind->setCurrentIndex(2);
        m_url->setText(t.url());
        m_pid->setValue(int(t.watchPid));
        break;
    default:
        m_kind->setCurrentIndex(1);
        if (const int i = m_external->findText(t.target); i >= 0)
            m_external->setCurrentIndex(i);
        m_externalThreads->setValue(t.serverThreads);
        break;
    }
    m_caption->setText(t.caption);
    m_addProblem.clear();
    changed();
}

void TargetsPage::refreshList()
{
    const QSignalBlocker quiet(m_list); // the form keeps what it shows
    const int current = m_list->currentRow();
    m_list->clear();
    for (const auto &t : m_targets) {
        // A real server not installed here is listed with what to do about it.
        const QString missing = lab::ServerTemplate::notInstalled(t.target);
        auto *item = new QListWidgetItem(
            missing.isEmpty() ? describe(t) : tr("%1 — not installed here").arg(describe(t)),
            m_list);
        if (!missing.isEmpty()) {
            item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            item->setToolTip(missing);
        }
    }
    if (current >= 0 && m_list->count() > 0)
        m_list->setCurrentRow(std::min(current, m_list->count() - 1));
    changed();
}

void TargetsPage::load(const lab::ExperimentSpec &spec)
{
    m_targets = spec.targets;
    refreshList();
}

void TargetsPage::apply(lab::ExperimentSpec &spec) const
{
    spec.targets = m_targets;
}

QString TargetsPage::problem() const
{
    for (const QString &why : m_fieldProblems)
        if (!why.isEmpty())
            return why;
    if (!m_addProblem.isEmpty())
        return m_addProblem;
    if (m_targets.isEmpty())
        return tr("Add at least one target.");
    return {};
}

} // namespace servelab::ui
