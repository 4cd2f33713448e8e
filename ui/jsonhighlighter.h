// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace servelab::ui {

// The built-in JSON highlighter, used when KDE's syntax highlighting is not available at build
// time: keys, strings, numbers and the literals true/false/null.
class JsonHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit JsonHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_key;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_literal;
};

// Attaches the best JSON highlighter this build has to `document` and returns its name:
// "KSyntaxHighlighting" or "built-in".
QString attachJsonHighlighter(QTextDocument *document);

} // namespace servelab::ui
