// SPDX-License-Identifier: Apache-2.0
#include "flamegraphview.h"

#include <QHelpEvent>
#include <QImage>
#include <QImageWriter>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>

namespace servelab::ui {

FlameGraphView::FlameGraphView(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::ClickFocus);
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void FlameGraphView::setTree(profile::FlameTree tree, const QString &title)
{
    m_tree = std::move(tree);
    m_painter = FlameGraphPainter(&m_tree);
    m_painter.setTitle(title);
    m_painter.setSearch(m_search);
    setFixedHeight(int(m_painter.heightFor()));
    updateGeometry();
    update();
}

void FlameGraphView::setSearch(const QString &text)
{
    m_search = text;
    m_painter.setSearch(text);
    update();
}

void FlameGraphView::zoomTo(int node)
{
    if (node < 0 || node >= int(m_tree.nodes().size()))
        return;
    m_painter.setZoom(node);
    update();
    Q_EMIT zoomed(node);
}

double FlameGraphView::matchedShare() const
{
    return m_tree.matchedShare(m_search);
}

QSize FlameGraphView::sizeHint() const
{
    return {800, int(m_painter.heightFor())};
}

void FlameGraphView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    m_painter.paint(&painter, rect());
}

void FlameGraphView::mousePressEvent(QMouseEvent *event)
{
    const int node = m_painter.nodeAt(event->position(), width());
    if (node >= 0)
        zoomTo(node == m_painter.zoom() ? std::max(0, m_tree.node(node).parent) : node);
}

void FlameGraphView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape)
        zoomTo(0);
    else
        QWidget::keyPressEvent(event);
}

bool FlameGraphView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int node = m_painter.nodeAt(help->pos(), width());
        if (node >= 0)
            QToolTip::showText(help->globalPos(), m_painter.describe(node), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

bool FlameGraphView::write(const QString &path, QString *error, int width) const
{
    const auto fail = [&](const QString &why) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        return false;
    };
    if (m_tree.total() <= 0)
        return fail(QStringLiteral("there is no profile to draw"));
    const QSizeF size(width, m_painter.heightFor());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size.toSize());
        svg.setViewBox(QRectF(QPointF(), size));
        svg.setTitle(QStringLiteral("ServeLab flame graph"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            file.cancelWriting();
            return fail(QStringLiteral("the SVG writer could not start"));
        }
        m_painter.paint(&painter, QRectF(QPointF(), size));
        painter.end();
    } else {
        QImage image((size * 2).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(2);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::TextAntialiasing);
            m_painter.paint(&painter, QRectF(QPointF(), size));
        }
        QImageWriter writer(&file, "png");
        if (!writer.write(image)) {
            file.cancelWriting();
            return fail(writer.errorString());
        }
    }
    return file.commit() || fail(file.errorString());
}

} // namespace servelab::ui
