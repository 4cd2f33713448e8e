// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QTextBrowser;

namespace servelab::ui {

// The help page (resources/help/index.html): what each tab shows and how to read it, the
// history, the equivalent ab/wrk/wrk2/fhb commands, the keys. One per window, not modal.
class HelpBrowser : public QDialog
{
    Q_OBJECT
public:
    explicit HelpBrowser(QWidget *parent = nullptr);

    QString title() const; // the page's own title, once loaded
    // Shows the page at `anchor` (a section id, empty: the top).
    void showAt(const QString &anchor = {});

private:
    QTextBrowser *m_text;
};

} // namespace servelab::ui
