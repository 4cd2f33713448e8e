// SPDX-License-Identifier: Apache-2.0
#include "speceditor.h"

#include "jsonhighlighter.h"

#include <QFontDatabase>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTimer>

namespace servelab::ui {

namespace {

// "FILE:LINE:COLUMN: …" of a spec problem, as (line, column); (0, 0) when it names none.
std::pair<int, int> placeOf(const QString &problem)
{
    const QStringList parts = problem.split(u':');
    if (parts.size() < 4)
        return {0, 0};
    return {parts[1].toInt(), parts[2].toInt()};
}

} // namespace

SpecEditor::SpecEditor(QWidget *parent)
    : QSplitter(Qt::Vertical, parent), m_text(new QPlainTextEdit), m_problems(new QListWidget),
      m_pause(new QTimer(this))
{
    m_text->setObjectName(QStringLiteral("specEditor"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_highlighter = attachJsonHighlighter(m_text->document());
    m_problems->setObjectName(QStringLiteral("specProblems"));
    m_problems->setToolTip(tr("Click a problem to go to its place in the spec"));
    m_problems->setMaximumHeight(120);
    m_pause->setSingleShot(true);
    m_pause->setInterval(300); // check once typing pauses
    connect(m_text, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_settingText)
            m_pause->start();
    });
    connect(m_pause, &QTimer::timeout, this, &SpecEditor::check);
    connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const auto [line, column] = placeOf(item->text());
        if (line < 1)
            return;
        QTextCursor cursor(m_text->document()->findBlockByNumber(line - 1));
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::max(0, column - 1));
        m_text->setTextCursor(cursor);
        m_text->setFocus();
    });
    connect(m_problems, &QListWidget::itemClicked, m_problems, &QListWidget::itemActivated);
    addWidget(m_text);
    addWidget(m_problems);
    setStretchFactor(0, 1);
}

void SpecEditor::showSpec(const QString &json)
{
    m_settingText = true;
    m_text->setPlainText(json);
    m_settingText = false;
    m_problems->clear();
}

void SpecEditor::editSpec(const QString &json)
{
    showSpec(json);
    check();
}

void SpecEditor::check()
{
    lab::ExperimentSpec spec;
    QStringList problems;
    m_problems->clear();
    if (!lab::ExperimentSpec::parse(m_text->toPlainText().toUtf8(), QStringLiteral("spec"), &spec,
                                    &problems))
        m_problems->addItems(problems);
    Q_EMIT checked(spec, problems);
}

QStringList SpecEditor::problems() const
{
    QStringList out;
    for (int i = 0; i < m_problems->count(); ++i)
        out << m_problems->item(i)->text();
    return out;
}

bool SpecEditor::isBeingEdited() const
{
    return m_text->hasFocus();
}

void SpecEditor::setLocked(bool locked)
{
    m_text->setEnabled(!locked);
    m_text->setReadOnly(locked);
}

} // namespace servelab::ui
