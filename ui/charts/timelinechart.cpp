// SPDX-License-Identifier: Apache-2.0
#include "timelinechart.h"

#include "chartframe.h"
#include "chartview.h"

#include "pointseries.h"

#include <QChart>
#include <QChartView>
#include <QHash>
#include <QLegend>
#include <QLineSeries>
#include <QMap>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_time(new QValueAxis), m_fds(new QValueAxis)
{
    frameChart(m_chart, tr("Server file descriptors"));
    addAxis(m_chart, m_time, tr("Seconds since the first point"), 1, Qt::AlignBottom);
    addAxis(m_chart, m_fds, tr("Open fds"), 0, Qt::AlignLeft);
    m_view = fillWithView(this, m_chart);
    connect(static_cast<ChartView *>(m_view), &ChartView::released, this, [this] { fit(); });
}

// The axes around everything drawn, unless the user holds the view (zoomed or panned).
void TimelineChart::fit()
{
    if (ChartView::isHeld(m_chart))
        return;
    m_time->setRange(0, m_maxTime);
    m_time->applyNiceNumbers();
    m_fds->setRange(0, m_maxFds * 1.1);
    m_fds->applyNiceNumbers();
}

void TimelineChart::setPoints(const QList<lab::PointResult> &points)
{
    m_chart->removeAllSeries();
    m_live.reset();
    m_limitLine = nullptr;
    m_samples = 0;
    m_targets = 0;
    m_pens.clear();
    m_maxTime = 1;
    m_maxFds = 1;
    m_limit = -1;
    m_origin = -1;
    for (const auto &p : points)
        for (const auto &s : p.serverSamples)
            m_origin = m_origin < 0 ? s.atMicros : std::min(m_origin, s.atMicros);
    for (const auto &p : points)
        appendPoint(p);
    fit();
}

void TimelineChart::addPoint(const lab::PointResult &point)
{
    m_live.remove(m_chart); // the point's live line gives way to the whole point
    appendPoint(point);
    // During a run the axes only grow (the live line left room): a new range re-lays out every
    // line drawn so far.
    if (!ChartView::isHeld(m_chart) && (m_maxTime > m_time->max() || m_maxFds * 1.1 > m_fds->max()))
        fit();
}

// One line per point, so that a target's repetitions do not join across the others; a target
// keeps one colour and one legend entry.
void TimelineChart::appendPoint(const lab::PointResult &point)
{
    QList<QPointF> line;
    for (const auto &s : point.serverSamples) {
        if (!s.alive)
            continue;
        if (m_origin < 0)
            m_origin = s.atMicros;
        const double t = double(s.atMicros - m_origin) / 1e6;
        line.append({t, double(s.total)});
        m_maxFds = std::max(m_maxFds, double(s.total));
        m_maxTime = std::max(m_maxTime, t);
        m_limit = std::max(m_limit, s.fdLimit);
    }
    if (line.isEmpty())
        return;
    m_samples += int(line.size());
    addPointSeries(m_chart, m_time, m_fds, point.target, line, m_pens);
    m_targets = int(m_pens.size());
    // The limit, when it is in sight (a limit of 20000 beside 30 fds would flatten the lines).
    if (m_limit > 0 && m_limit <= m_maxFds * 4) {
        if (!m_limitLine) {
            m_limitLine = new QLineSeries;
            QPen pen(Qt::red);
            pen.setStyle(Qt::DashLine);
            m_limitLine->setPen(pen);
            m_chart->addSeries(m_limitLine);
            m_limitLine->attachAxis(m_time);
            m_limitLine->attachAxis(m_fds);
        }
        m_limitLine->setName(tr("fd limit (%1)").arg(m_limit));
        m_limitLine->replace({{0, double(m_limit)}, {m_maxTime, double(m_limit)}});
        m_maxFds = std::max(m_maxFds, double(m_limit));
    }
}

void TimelineChart::setLive(const QString &target, const QList<QPointF> &microsAndFds)
{
    m_live.update({m_chart, m_time, m_fds, m_pens, m_origin, m_maxTime, m_maxFds}, target,
                  microsAndFds, liveLimit);
}

int TimelineChart::liveCount() const
{
    return m_live.count();
}

int TimelineChart::seriesCount() const
{
    return int(m_chart->series().size());
}

int TimelineChart::targetCount() const
{
    return m_targets;
}

int TimelineChart::sampleCount() const
{
    return m_samples;
}

QChartView *TimelineChart::view() const
{
    return m_view;
}

QImage TimelineChart::render() const
{
    return m_view->grab().toImage();
}

} // namespace servelab::ui
