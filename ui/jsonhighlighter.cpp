// SPDX-License-Identifier: Apache-2.0
#include "jsonhighlighter.h"

#include "servelab_config.h"
#include "syntaxrepository.h"

#include <QGuiApplication>
#include <QPalette>

#include <QRegularExpression>

#if HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace servelab::ui {

JsonHighlighter::JsonHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    m_key.setForeground(QColor(0x1f, 0x4e, 0x9c));
    m_key.setFontWeight(QFont::Bold);
    m_string.setForeground(QColor(0xbf, 0x03, 0x03));
    m_number.setForeground(QColor(0xb0, 0x80, 0x00));
    m_literal.setForeground(QColor(0x00, 0x6e, 0x28));
    m_literal.setFontWeight(QFont::Bold);
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    static const QRegularExpression token(QStringLiteral(
        R"re(("(?:[^"\\]|\\.)*")(\s*:)?|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|\b(true|false|null)\b)re"));
    for (auto it = token.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        if (match.capturedLength(1))
            setFormat(match.capturedStart(1), match.capturedLength(1),
                      match.capturedLength(2) ? m_key : m_string);
        else if (match.capturedLength(3))
            setFormat(match.capturedStart(3), match.capturedLength(3), m_number);
        else
            setFormat(match.capturedStart(4), match.capturedLength(4), m_literal);
    }
}

QString attachJsonHighlighter(QTextDocument *document)
{
#if HAVE_KSYNTAXHIGHLIGHTING
    KSyntaxHighlighting::Repository &repository = syntaxRepository();
    const auto definition = repository.definitionForName(QStringLiteral("JSON"));
    if (definition.isValid()) {
        auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
        // Dark or light, as the palette is.
        highlighter->setTheme(repository.themeForPalette(QGuiApplication::palette()));
        highlighter->setDefinition(definition);
        return QStringLiteral("KSyntaxHighlighting");
    }
#endif
    new JsonHighlighter(document);
    return QStringLiteral("built-in");
}

} // namespace servelab::ui
