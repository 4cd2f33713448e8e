// SPDX-License-Identifier: Apache-2.0
#include "tunepanel.h"

#include "lab/spec/serveroptiontable.h"
#include "server/serveroptions.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace servelab::ui {

TunePanel::TunePanel(QWidget *parent)
    : QGroupBox(tr("Tune the server while it runs"), parent), m_table(new QTableWidget(0, 2)),
      m_apply(new QPushButton(tr("Apply"))), m_counters(new QLabel), m_result(new QLabel)
{
    setObjectName(QStringLiteral("tunePanel"));
    m_table->setObjectName(QStringLiteral("tuneOptions"));
    m_table->setHorizontalHeaderLabels({tr("Option"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setMaximumHeight(240);
    m_apply->setObjectName(QStringLiteral("tuneApply"));
    m_apply->setToolTip(tr("Sends the edited values to the server at once: all are taken, or "
                           "none with the reason (servelab-cli tune does the same)"));
    m_result->setWordWrap(true);
    m_result->setObjectName(QStringLiteral("tuneResult"));
    m_counters->setObjectName(QStringLiteral("tuneCounters"));
    m_counters->setWordWrap(true);
    auto *row = new QHBoxLayout;
    row->addWidget(m_result, 1);
    row->addWidget(m_apply, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(m_counters);
    layout->addLayout(row);
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_filling)
            checkEdits();
    });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        const QStringList changes = edited();
        if (changes.isEmpty())
            showResult(false, tr("Nothing edited: change a value first."));
        else
            Q_EMIT tuneRequested(changes);
    });
    showOptions({}, false);
}

void TunePanel::showOptions(const QStringList &nameValues, bool running)
{
    m_shown = nameValues;
    m_problems.clear();
    m_filling = true;
    m_table->setRowCount(0);
    for (const QString &option : nameValues) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto *name = new QTableWidgetItem(option.section(u'=', 0, 0));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, 0, name);
        m_table->setItem(row, 1, new QTableWidgetItem(option.section(u'=', 1)));
    }
    m_filling = false;
    m_table->resizeColumnToContents(0);
    m_apply->setEnabled(!nameValues.isEmpty());
    m_table->setVisible(!nameValues.isEmpty()); // no empty box between runs
    m_apply->setVisible(running);
    if (!running)
        m_counters->clear();
    // While options are shown, the last Apply's outcome stays (a refusal is read, not lost to
    // the next point's refresh).
    if (running && !nameValues.isEmpty())
        return;
    m_result->setStyleSheet(QString());
    if (!running)
        m_result->setText(tr("Changes apply while a point of a built-in server runs."));
    else
        m_result->setText(tr("This target cannot be tuned: only ServeLab's built-in servers take "
                             "changes while they run."));
}

void TunePanel::checkEdits()
{
    QStringList problems;
    server::ServerOptions scratch;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem *value = m_table->item(row, 1);
        const QString name = m_table->item(row, 0)->text();
        const bool edited = row < m_shown.size() && name + u'=' + value->text() != m_shown[row];
        QString why;
        if (edited) {
            const lab::ServerOptionTable::Row *option = lab::ServerOptionTable::find(name);
            if (option && option->fixed)
                why = tr("cannot change while the server runs: %1")
                          .arg(QLatin1StringView(option->fixed));
            else if (option)
                option->set(&scratch, value->text().trimmed(), &why);
        }
        m_filling = true;
        value->setBackground(why.isEmpty() ? QBrush() : QBrush(QColor(255, 205, 210)));
        value->setToolTip(why);
        m_filling = false;
        if (!why.isEmpty())
            problems << QStringLiteral("%1: %2").arg(name, why);
    }
    m_problems = problems.join(u'\n');
    m_apply->setEnabled(problems.isEmpty() && m_table->rowCount() > 0);
    m_result->setText(m_problems.isEmpty() ? QString() : tr("Not sent: %1").arg(m_problems));
    m_result->setStyleSheet(m_problems.isEmpty() ? QString() : QStringLiteral("color: #b00020"));
}

void TunePanel::showCounters(double requestsPerSecond, int threads, int fds)
{
    QStringList parts;
    if (requestsPerSecond >= 0)
        parts << tr("%1 req/s").arg(QLocale().toString(requestsPerSecond, 'f', 0));
    if (threads > 0)
        parts << (threads == 1 ? tr("1 process thread") : tr("%1 process threads").arg(threads));
    if (fds > 0)
        parts << tr("%1 fds").arg(fds);
    m_counters->setText(parts.isEmpty() ? QString()
                                        : tr("Now: %1").arg(parts.join(QStringLiteral(" · "))));
}

void TunePanel::showResult(bool made, const QString &text)
{
    if (made) {
        m_shown.clear();
        for (int row = 0; row < m_table->rowCount(); ++row)
            m_shown << m_table->item(row, 0)->text() + u'=' + m_table->item(row, 1)->text();
    } else {
        showOptions(m_shown, true); // back to what the server has
    }
    m_result->setText(made ? tr("Made: %1").arg(text) : tr("Refused: %1").arg(text));
    m_result->setStyleSheet(made ? QString() : QStringLiteral("color: #b00020"));
}

int TunePanel::optionCount() const
{
    return m_table->rowCount();
}

QString TunePanel::valueOf(const QString &name) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->text() == name)
            return m_table->item(row, 1)->text();
    return {};
}

QStringList TunePanel::edited() const
{
    QStringList out;
    for (int row = 0; row < m_table->rowCount() && row < m_shown.size(); ++row) {
        const QString now = m_table->item(row, 0)->text() + u'=' + m_table->item(row, 1)->text();
        if (now != m_shown[row])
            out << now;
    }
    return out;
}

} // namespace servelab::ui
