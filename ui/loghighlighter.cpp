// SPDX-License-Identifier: Apache-2.0
#include "loghighlighter.h"

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

LogHighlighter::LogHighlighter(QTextDocument *document, bool dark) : QSyntaxHighlighter(document)
{
    m_progress.setForeground(dark ? QColor(0x9e, 0x9e, 0x9e) : QColor(0x75, 0x75, 0x75));
    m_header.setForeground(dark ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x1f, 0x4e, 0x9c));
    m_header.setFontWeight(QFont::Bold);
    m_failure.setForeground(dark ? QColor(0xff, 0x6e, 0x6e) : QColor(0xb0, 0x00, 0x20));
    m_failure.setFontWeight(QFont::Bold);
    m_figure.setForeground(dark ? QColor(0x81, 0xc9, 0x95) : QColor(0x00, 0x6e, 0x28));
    m_warning.setForeground(dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xb0, 0x60, 0x00));
}

void LogHighlighter::highlightBlock(const QString &text)
{
    static const QRegularExpression progress(QStringLiteral(R"(^\[\d+/\d+\])"));
    static const QRegularExpression header(
        QStringLiteral("^(run:|kept as experiment|Done:|Cancelled|Showing)"));
    static const QRegularExpression figure(QStringLiteral(R"(\b\d+(\.\d+)? (KiB/s|requests/s))"));
    static const QRegularExpression warning(
        QStringLiteral(R"(EMFILE|requests failed|kept \d+ more fds open|noisy)"));
    const auto mark = [&](const QRegularExpression &pattern, const QTextCharFormat &format) {
        for (auto it = pattern.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), format);
        }
    };
    mark(progress, m_progress);
    mark(header, m_header);
    mark(figure, m_figure);
    mark(warning, m_warning);
    if (text.startsWith(QStringLiteral("Failed:")))
        setFormat(0, int(text.size()), m_failure);
    else if (const auto dnf = text.indexOf(QStringLiteral("DNF")); dnf >= 0)
        setFormat(int(dnf), int(text.size() - dnf), m_failure); // DNF and its reason
}

QString attachLogHighlighter(QTextDocument *document)
{
    const QPalette palette = QGuiApplication::palette();
#if HAVE_KSYNTAXHIGHLIGHTING
    KSyntaxHighlighting::Repository &repository = syntaxRepository();
    const auto definition = repository.definitionForName(QStringLiteral("ServeLab Run Log"));
    if (definition.isValid()) {
        auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
        highlighter->setTheme(repository.themeForPalette(palette));
        highlighter->setDefinition(definition);
        return QStringLiteral("KSyntaxHighlighting");
    }
#endif
    new LogHighlighter(document, palette.color(QPalette::Base).lightness() < 128);
    return QStringLiteral("built-in");
}

} // namespace servelab::ui
