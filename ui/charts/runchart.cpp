// SPDX-License-Identifier: Apache-2.0
#include "runchart.h"

#include "chartframe.h"
#include "chartview.h"

#include <QBoxLayout>
#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>

namespace servelab::ui {

RunChart::RunChart(const QString &title, QWidget *parent) : QWidget(parent), m_chart(new QChart)
{
    frameChart(m_chart, title);
    m_view = fillWithView(this, m_chart);
    connect(static_cast<ChartView *>(m_view), &ChartView::released, this, [this] { fit(); });
}

void RunChart::addPoint(const lab::PointResult &, const RunView &run)
{
    draw(run);
}

void RunChart::drawLive(const LivePoint &) {}

void RunChart::fitLegend() const
{
    QLegend *legend = m_chart->legend();
    const QFontMetrics metrics(legend->font());
    // The width one row of every entry takes (marker, name, gaps). Each name once: a series a
    // chart keeps out of the legend shares its line's name, or has none (whether a marker is
    // shown cannot be read before the chart is).
    QStringList names;
    for (QLegendMarker *marker : legend->markers())
        if (!marker->label().isEmpty() && !names.contains(marker->label()))
            names << marker->label();
    int row = 0;
    for (const QString &name : names)
        row += metrics.horizontalAdvance(name) + 3 * metrics.height();
    const Qt::Alignment side =
        row <= m_view->width() - 2 * metrics.height() ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != side)
        legend->setAlignment(side);
}

void RunChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLegend();
}

QHBoxLayout *RunChart::controlRow()
{
    if (!m_controls) {
        m_controls = new QHBoxLayout;
        m_controls->setContentsMargins(6, 2, 6, 0);
        static_cast<QVBoxLayout *>(layout())->insertLayout(0, m_controls);
    }
    return m_controls;
}

} // namespace servelab::ui
