// SPDX-License-Identifier: Apache-2.0
#include "clientpage.h"

#include "fieldspinbox.h"
#include "lab/spec/clientkey.h"
#include "lab/spec/experimentmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace servelab::ui {

namespace {

constexpr auto label = lab::FieldNaming::Label;
// Where the models with connections and threads start in the window: wrk's usual -c 96 -t 8.
constexpr int startConnections = 96;
constexpr int startThreads = 8;

// "1,10,100": each in `field`'s range, once; *why says what is wrong.
QList<qint64> parseList(const lab::SpecField &field, const QString &text, QString *why)
{
    QList<qint64> out;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 n = part.trimmed().toLongLong(&ok);
        if (!ok || !field.contains(n)) {
            *why = ClientPage::tr("%1 %2, not '%3'")
                       .arg(field.name(label), field.wants(), part.trimmed());
            return {};
        }
        if (!out.contains(n))
            out << n;
    }
    if (out.isEmpty())
        *why = ClientPage::tr("%1: give a number, or a list as %2")
                   .arg(field.name(label), &field == &lab::SpecFields::rate
                                               ? QStringLiteral("1000,2000,4000")
                                               : QStringLiteral("1,10,100"));
    return out;
}

} // namespace

ClientPage::ClientPage(QWidget *parent)
    : WizardPage(parent), m_model(new QComboBox), m_forms(new QStackedWidget),
      m_equivalent(new QLabel)
{
    setTitle(tr("Client"));
    setSubTitle(tr("How the load is made. Each point is one run of this client."));
    for (const lab::ExperimentModel &model : lab::ExperimentModel::all()) {
        m_model->addItem(tr(model.title), int(model.model));
        m_forms->addWidget(buildForm(model));
    }
    m_equivalent->setObjectName(QStringLiteral("equivalent"));
    m_equivalent->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_equivalent->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Model"), m_model);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_forms);
    layout->addWidget(m_equivalent);
    layout->addStretch();
    layout->addWidget(problemLabel());

    connect(m_model, &QComboBox::currentIndexChanged, m_forms, &QStackedWidget::setCurrentIndex);
    connect(m_model, &QComboBox::currentIndexChanged, this, &ClientPage::changed);
    connect(this, &QWizardPage::completeChanged, this, [this] {
        m_equivalent->setText(tr("The same load from a shell: %1").arg(equivalent()));
    });
}

QWidget *ClientPage::buildForm(const lab::ExperimentModel &model)
{
    Form f;
    f.model = &model;
    auto *page = new QWidget;
    auto *rows = new QFormLayout(page);
    const QString concurrency = lab::SpecFields::concurrency.name(label);
    if (model.countsRequests) {
        f.levels = new QLineEdit(QStringLiteral("1"));
        f.levels->setObjectName(QStringLiteral("concurrency"));
        f.levels->setToolTip(
            tr("Requests at a time: ab -c. A list (1,10,100) runs every target at each"));
        connect(f.levels, &QLineEdit::textChanged, this, &ClientPage::changed);
    } else {
        f.connections = new FieldSpinBox(lab::SpecFields::concurrency);
        f.connections->setObjectName(QStringLiteral("connections"));
        f.connections->setValue(startConnections);
        f.connections->setToolTip(tr("Connections (users), kept alive: wrk -c, fhb -c"));
        connect(f.connections, &QSpinBox::valueChanged, this, &ClientPage::changed);
    }
    // ab's concurrency after its request count (ab -n -c); the others' connections (users)
    // first, before the times they run for.
    bool concurrencyShown = false;
    const auto showConcurrency = [&] {
        if (f.levels)
            rows->addRow(tr("%1, or a list").arg(concurrency), f.levels);
        else
            rows->addRow(concurrency, f.connections);
        concurrencyShown = true;
    };
    if (!model.countsRequests)
        showConcurrency();
    for (const char *name : model.keys) {
        const lab::ClientKey *key = lab::ClientKey::find(QLatin1String(name));
        QWidget *box = nullptr;
        if (key->field == &lab::SpecFields::rate) { // one offered rate, or a list of them
            f.rates = new QLineEdit(QString::number(lab::SpecFields::rate.fallback));
            f.rates->setObjectName(QStringLiteral("rates"));
            f.rates->setToolTip(tr("Requests per second offered: wrk2 -R. A list (1000,2000,4000) "
                                   "runs every target at each: the Latency vs load tab"));
            connect(f.rates, &QLineEdit::textChanged, this, &ClientPage::changed);
            rows->addRow(tr("%1, or a list").arg(key->label()), f.rates);
            continue;
        }
        switch (key->kind) {
        case lab::ClientKey::Kind::Number: {
            auto *spin = new FieldSpinBox(*key->field);
            if (key->field == &lab::SpecFields::clientThreads) {
                spin->setObjectName(QStringLiteral("clientThreads"));
                spin->setValue(startThreads);
            }
            connect(spin, &QSpinBox::valueChanged, this, &ClientPage::changed);
            box = spin;
            break;
        }
        case lab::ClientKey::Kind::Real: {
            auto *spin = new QDoubleSpinBox;
            spin->setRange(key->low, key->high);
            spin->setDecimals(3);
            spin->setSingleStep((key->high - key->low) / 20);
            connect(spin, &QDoubleSpinBox::valueChanged, this, &ClientPage::changed);
            box = spin;
            break;
        }
        case lab::ClientKey::Kind::Flag: {
            auto *check = new QCheckBox(key->label());
            connect(check, &QCheckBox::toggled, this, &ClientPage::changed);
            box = check;
            break;
        }
        case lab::ClientKey::Kind::Text: {
            auto *edit = new QLineEdit(key->get(lab::SweepSpec::defaults()).toString());
            connect(edit, &QLineEdit::textChanged, this, &ClientPage::changed);
            box = edit;
            break;
        }
        }
        box->setToolTip(QString::fromUtf8(key->help));
        f.boxes << Box{key, box};
        rows->addRow(key->kind == lab::ClientKey::Kind::Flag ? QString() : key->label(), box);
        if (!concurrencyShown)
            showConcurrency();
    }
    // Every model's timeout, in its own form so the boxes line up.
    f.timeout = new FieldSpinBox(lab::SpecFields::timeoutMs);
    f.timeout->setSuffix(tr(" ms"));
    f.timeout->setToolTip(tr("Connect and each response: ab -s, wrk --timeout"));
    connect(f.timeout, &QSpinBox::valueChanged, this, &ClientPage::changed);
    rows->addRow(lab::SpecFields::timeoutMs.name(label), f.timeout);
    m_modelForms << f;
    return page;
}

const ClientPage::Form &ClientPage::form() const
{
    return m_modelForms[std::max(0, m_model->currentIndex())];
}

void ClientPage::applyForm(lab::SweepSpec &t, QList<int> *levels, QList<qint64> *rates,
                           QString *why) const
{
    const Form &f = form();
    t.model = f.model->model;
    t.timeoutMs = f.timeout->value();
    for (const Box &b : f.boxes) {
        switch (b.key->kind) {
        case lab::ClientKey::Kind::Number:
            b.key->set(&t, QJsonValue(qint64(static_cast<QSpinBox *>(b.widget)->value())));
            break;
        case lab::ClientKey::Kind::Real:
            b.key->set(&t, QJsonValue(static_cast<QDoubleSpinBox *>(b.widget)->value()));
            break;
        case lab::ClientKey::Kind::Flag:
            b.key->set(&t, QJsonValue(static_cast<QCheckBox *>(b.widget)->isChecked()));
            break;
        case lab::ClientKey::Kind::Text:
            b.key->set(&t, QJsonValue(static_cast<QLineEdit *>(b.widget)->text().trimmed()));
            break;
        }
    }
    rates->clear();
    if (f.rates) {
        *rates = parseList(lab::SpecFields::rate, f.rates->text(), why);
        t.ratePerSecond = rates->isEmpty() ? lab::SpecFields::rate.fallback : rates->first();
    }
    if (f.levels) {
        levels->clear();
        for (qint64 c : parseList(lab::SpecFields::concurrency, f.levels->text(), why))
            *levels << int(c);
        t.concurrency = levels->isEmpty() ? 1 : *std::max_element(levels->begin(), levels->end());
    } else {
        levels->clear();
        t.concurrency = f.connections->value();
        t.keepAlive = t.keepAlive || !f.model->takes(*lab::ClientKey::find(u"keep_alive"));
    }
}

QString ClientPage::equivalent() const
{
    lab::SweepSpec t = lab::SweepSpec::defaults();
    QList<int> levels;
    QList<qint64> rates;
    QString why;
    applyForm(t, &levels, &rates, &why);
    return form().model->command(t);
}

void ClientPage::load(const lab::ExperimentSpec &spec)
{
    if (spec.targets.isEmpty())
        return;
    const lab::SweepSpec &t = spec.targets.first();
    m_loads = spec.loads;
    QStringList names;
    for (const lab::ClientLoad &l : m_loads)
        names << l.name;
    setSubTitle(m_loads.isEmpty()
                    ? tr("How the load is made. Each point is one run of this client.")
                    : tr("This experiment runs every target under %1 loads (%2): the form is "
                         "the first; the Review page's JSON holds them all.")
                          .arg(m_loads.size())
                          .arg(names.join(QStringLiteral(", "))));
    m_model->setCurrentIndex(std::max(0, m_model->findData(int(t.model))));
    const Form &f = form();
    for (const Box &b : f.boxes) {
        const QJsonValue value = b.key->get(t);
        switch (b.key->kind) {
        case lab::ClientKey::Kind::Number:
            static_cast<FieldSpinBox *>(b.widget)->setFieldValue(value.toInteger());
            break;
        case lab::ClientKey::Kind::Real:
            static_cast<QDoubleSpinBox *>(b.widget)->setValue(value.toDouble());
            break;
        case lab::ClientKey::Kind::Flag:
            static_cast<QCheckBox *>(b.widget)->setChecked(value.toBool());
            break;
        case lab::ClientKey::Kind::Text:
            static_cast<QLineEdit *>(b.widget)->setText(value.toString());
            break;
        }
    }
    if (f.rates) {
        QStringList rates;
        for (qint64 r : spec.rates)
            rates << QString::number(r);
        f.rates->setText(rates.isEmpty() ? QString::number(t.ratePerSecond) : rates.join(u','));
    }
    if (f.levels) {
        QStringList levels;
        for (int c : spec.concurrencies)
            levels << QString::number(c);
        f.levels->setText(levels.isEmpty() ? QString::number(t.concurrency) : levels.join(u','));
    } else {
        f.connections->setValue(t.concurrency);
    }
    f.timeout->setValue(t.timeoutMs);
    changed();
}

void ClientPage::apply(lab::ExperimentSpec &spec) const
{
    lab::SweepSpec client = lab::SweepSpec::defaults();
    QList<int> levels;
    QList<qint64> rates;
    QString why;
    applyForm(client, &levels, &rates, &why);
    spec.concurrencies = levels.size() > 1 ? levels : QList<int>();
    spec.rates = rates.size() > 1 ? rates : QList<qint64>();
    spec.loads = m_loads;
    if (!spec.loads.isEmpty()) { // the form is the first load of several
        spec.loads.first().client = client;
        spec.loads.first().concurrencies = spec.concurrencies;
        spec.loads.first().rates = spec.rates;
    }
    for (auto &t : spec.targets) {
        t.model = client.model;
        t.timeoutMs = client.timeoutMs;
        t.concurrency = client.concurrency;
        t.keepAlive = client.keepAlive;
        for (const Box &b : form().boxes)
            b.key->set(&t, b.key->get(client));
    }
}

QString ClientPage::problem() const
{
    lab::SweepSpec t = lab::SweepSpec::defaults();
    QList<int> levels;
    QList<qint64> rates;
    QString why;
    applyForm(t, &levels, &rates, &why);
    if (!why.isEmpty())
        return why;
    return form().model->problem(t, t.concurrency, label);
}

} // namespace servelab::ui
