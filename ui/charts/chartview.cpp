// SPDX-License-Identifier: Apache-2.0
#include "chartview.h"

#include <QToolTip>

#include <QChart>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace servelab::ui {

namespace {

// Kept on the chart, so that a chart class and the live line read it without the view.
constexpr const char *heldProperty = "servelabHeld";

} // namespace

ChartView::ChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Drag to zoom, wheel to zoom, Shift+drag or middle-drag to pan; "
                  "right-click or double-click for the whole chart"));
}

bool ChartView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && QToolTip::isVisible() && QToolTip::text() != toolTip())
        return true; // a point's value is up: it is what the user pointed at
    return QChartView::viewportEvent(event);
}

bool ChartView::isHeld() const
{
    return isHeld(chart());
}

bool ChartView::isHeld(const QChart *chart)
{
    return chart && chart->property(heldProperty).toBool();
}

void ChartView::hold()
{
    chart()->setProperty(heldProperty, true);
}

void ChartView::release()
{
    const bool was = isHeld();
    chart()->setProperty(heldProperty, false);
    chart()->zoomReset();
    if (was)
        Q_EMIT released();
}

void ChartView::zoomBy(qreal factor, QPointF centre)
{
    if (factor <= 0)
        return;
    hold();
    // The rectangle that becomes the plot area: smaller to zoom in, around `centre`.
    const QRectF area = chart()->plotArea();
    const QSizeF size = area.size() / factor;
    const QPointF corner =
        centre - QPointF((centre.x() - area.left()) / factor, (centre.y() - area.top()) / factor);
    chart()->zoomIn(QRectF(corner, size));
}

void ChartView::panBy(QPointF pixels)
{
    hold();
    chart()->scroll(-pixels.x(), pixels.y());
}

void ChartView::mousePressEvent(QMouseEvent *event)
{
    const bool pan = event->button() == Qt::MiddleButton ||
                     (event->button() == Qt::LeftButton && event->modifiers() & Qt::ShiftModifier);
    if (pan) {
        m_panning = true;
        m_last = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) { // the whole chart, in release below
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ChartView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPoint now = event->position().toPoint();
        panBy(now - m_last);
        m_last = now;
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void ChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        release();
        event->accept();
        return;
    }
    // A rubber band that zoomed: the chart is the user's until released.
    QChartView::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && chart()->isZoomed())
        hold();
}

void ChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    release();
    event->accept();
}

void ChartView::wheelEvent(QWheelEvent *event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(1.25, steps), event->position());
    event->accept();
}

void ChartView::keyPressEvent(QKeyEvent *event)
{
    const QRectF area = chart()->plotArea();
    const qreal dx = area.width() / 10;
    const qreal dy = area.height() / 10;
    switch (event->key()) {
    case Qt::Key_Left: panBy({dx, 0}); break;
    case Qt::Key_Right: panBy({-dx, 0}); break;
    case Qt::Key_Up: panBy({0, dy}); break;
    case Qt::Key_Down: panBy({0, -dy}); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25, area.center()); break;
    case Qt::Key_Minus: zoomBy(0.8, area.center()); break;
    case Qt::Key_Home:
    case Qt::Key_0: release(); break;
    default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

} // namespace servelab::ui
