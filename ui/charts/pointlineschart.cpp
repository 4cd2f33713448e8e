// SPDX-License-Identifier: Apache-2.0
#include "pointlineschart.h"

#include "chartframe.h"
#include "chartview.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

PointLinesChart::PointLinesChart(const QString &title, const QString &valueTitle, QWidget *parent)
    : RunChart(title, parent), m_time(new QValueAxis), m_value(new QValueAxis)
{
    addAxis(chart(), m_time, tr("Seconds since the first point"), 1, Qt::AlignBottom);
    addAxis(chart(), m_value, valueTitle, 0, Qt::AlignLeft);
}

void PointLinesChart::fit()
{
    if (!ChartView::isHeld(chart())) {
        m_time->setRange(0, m_maxTime);
        m_time->applyNiceNumbers();
        m_value->setRange(0, m_maxValue * 1.1);
        m_value->applyNiceNumbers();
    }
    m_tunes.draw(chart(), m_time, m_value, m_value->max());
}

void PointLinesChart::setPoints(const QList<lab::PointResult> &points)
{
    chart()->removeAllSeries();
    m_live.reset();
    m_samples = 0;
    m_pens = targetPens(chart(), points);
    m_maxTime = 1;
    m_maxValue = 1;
    m_origin = -1;
    m_tunes.reset();
    cleared();
    for (const auto &p : points)
        if (const std::int64_t start = originOf(p); start >= 0)
            m_origin = m_origin < 0 ? start : std::min(m_origin, start);
    for (const auto &p : points)
        appendPoint(p);
    fit();
}

void PointLinesChart::addPoint(const lab::PointResult &point)
{
    m_live.remove(chart()); // the point's live line gives way to the whole point
    appendPoint(point);
    // During a run the axes only grow (the live line left room): a new range re-lays out every
    // line drawn so far.
    if (!ChartView::isHeld(chart()) &&
        (m_maxTime > m_time->max() || m_maxValue * 1.1 > m_value->max()))
        fit();
}

void PointLinesChart::addPoint(const lab::PointResult &point, const RunView &)
{
    addPoint(point);
}

void PointLinesChart::appendPoint(const lab::PointResult &point)
{
    const std::int64_t start = originOf(point);
    if (start < 0)
        return;
    if (m_origin < 0)
        m_origin = start;
    QList<QPointF> line = lineOf(point);
    if (line.isEmpty())
        return;
    for (QPointF &p : line) {
        p.setX(double(std::int64_t(p.x()) - m_origin) / 1e6);
        m_maxTime = std::max(m_maxTime, p.x());
        m_maxValue = std::max(m_maxValue, p.y());
    }
    m_samples += int(line.size());
    addPointSeries(chart(), m_time, m_value, point.target, line, m_pens);
    for (const lab::TuneEvent &e : point.tuneEvents)
        m_tunes.add(double(e.atMicros - m_origin) / 1e6, e);
    m_tunes.draw(chart(), m_time, m_value, m_maxValue * 1.1);
    appended(point);
}

void PointLinesChart::setLive(const QString &target, const QList<QPointF> &microsAndValue,
                              const std::vector<lab::TuneEvent> &tunes)
{
    m_live.update({chart(), m_time, m_value, m_pens, m_origin, m_maxTime, m_maxValue}, target,
                  microsAndValue, liveLimit);
    if (tunes.empty() || m_origin < 0)
        return;
    const int before = m_tunes.count();
    for (const lab::TuneEvent &e : tunes) // the point's own events, when it ends, are these
        m_tunes.add(double(e.atMicros - m_origin) / 1e6, e);
    if (m_tunes.count() != before)
        m_tunes.draw(chart(), m_time, m_value, m_maxValue * 1.1);
}

int PointLinesChart::liveCount() const
{
    return m_live.count();
}

int PointLinesChart::seriesCount() const
{
    return int(chart()->series().size());
}

int PointLinesChart::sampleCount() const
{
    return m_samples;
}

} // namespace servelab::ui
