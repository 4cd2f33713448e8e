// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QChartView>
#include <QPoint>

namespace servelab::ui {

// The view every chart here is drawn in. Zoom: drag a rectangle, or the wheel (around the
// cursor), or + and −. Pan: drag with the middle button or with Shift held, or the arrow keys.
// Back to the whole chart: right-click, double-click or Home.
// While the user has zoomed or panned, the chart is held: its class leaves the axes alone as
// points arrive (isHeld()); going back releases it and emits released(), on which the chart
// fits its axes to everything drawn.
class ChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ChartView(QChart *chart, QWidget *parent = nullptr);

    bool isHeld() const;
    static bool isHeld(const QChart *chart); // for a chart class that has only its QChart
    // The user's moves, for the keys and the mouse alike (and tests).
    void zoomBy(qreal factor, QPointF centre);
    void panBy(QPointF pixels); // the content moves with a positive x to the right
    void release();

Q_SIGNALS:
    void released();

protected:
    // The zoom help as the view's tooltip, unless a point's value is showing (a series'
    // hover put it up): the value stays.
    bool viewportEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void hold();

    bool m_panning = false;
    QPoint m_last;
};

} // namespace servelab::ui
