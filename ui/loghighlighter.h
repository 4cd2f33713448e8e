// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace servelab::ui {

// The built-in highlighter of the run log, used when KDE's syntax highlighting is not available
// at build time: the [n/m] of each point, DNF and its reason, figures, warnings (EMFILE, failed
// requests, descriptors kept), and the run's own lines. Colours follow the palette.
class LogHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit LogHighlighter(QTextDocument *document, bool dark = false);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_progress;
    QTextCharFormat m_header;
    QTextCharFormat m_failure;
    QTextCharFormat m_figure;
    QTextCharFormat m_warning;
};

// Attaches the best log highlighter this build has to `document` (KSyntaxHighlighting with
// ServeLab's own definition, resources/syntax/servelab-log.xml, or the built-in one), in the
// colours of the application's palette, and returns its name.
QString attachLogHighlighter(QTextDocument *document);

} // namespace servelab::ui
