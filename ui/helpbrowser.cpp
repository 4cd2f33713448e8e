// SPDX-License-Identifier: Apache-2.0
#include "helpbrowser.h"

#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace servelab::ui {

HelpBrowser::HelpBrowser(QWidget *parent) : QDialog(parent), m_text(new QTextBrowser)
{
    setWindowTitle(tr("ServeLab Help"));
    m_text->setObjectName(QStringLiteral("helpText"));
    m_text->setOpenExternalLinks(true);
    m_text->setSource(QUrl(QStringLiteral("qrc:/help/index.html")));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    resize(720, 640);
}

QString HelpBrowser::title() const
{
    return m_text->documentTitle();
}

void HelpBrowser::showAt(const QString &anchor)
{
    if (anchor.isEmpty())
        m_text->home();
    else
        m_text->scrollToAnchor(anchor);
    show();
    raise();
    activateWindow();
}

} // namespace servelab::ui
