// SPDX-License-Identifier: Apache-2.0
#include "runchart.h"

#include "chartframe.h"
#include "chartview.h"

#include <QBoxLayout>
#include <QChart>

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

void RunChart::drawLive(const LivePoint &)
{
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
