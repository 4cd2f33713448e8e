// SPDX-License-Identifier: Apache-2.0
#include "timelinechart.h"

#include "lab/results/resultexport.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

TimelineChart::TimelineChart(QWidget *parent)
    : PointLinesChart(tr("Server file descriptors"), tr("Open fds"), parent)
{}

void TimelineChart::draw(const RunView &run)
{
    setPoints(run.overlaid);
    drawLive(run.live);
}

void TimelineChart::drawLive(const LivePoint &live)
{
    if (!live.target.isEmpty())
        setLive(live.target, live.fds, live.tunes);
}

QString TimelineChart::dataCsv(const RunView &run) const
{
    return lab::formatTimelineCsv(run.overlaid); // what it draws: overlays too
}

std::int64_t TimelineChart::originOf(const lab::PointResult &point) const
{
    std::int64_t origin = -1;
    for (const auto &s : point.serverSamples)
        if (s.alive)
            origin = origin < 0 ? s.atMicros : std::min(origin, s.atMicros);
    return origin;
}

QList<QPointF> TimelineChart::lineOf(const lab::PointResult &point) const
{
    QList<QPointF> line;
    for (const auto &s : point.serverSamples)
        if (s.alive)
            line.append({double(s.atMicros), double(s.total)});
    return line;
}

void TimelineChart::cleared()
{
    m_limitLine = nullptr;
    m_limit = -1;
    m_targets = 0;
}

void TimelineChart::appended(const lab::PointResult &point)
{
    m_targets = int(pens().size());
    for (const auto &s : point.serverSamples)
        if (s.alive)
            m_limit = std::max(m_limit, s.fdLimit);
    // The limit, when it is in sight (a limit of 20000 beside 30 fds would flatten the lines).
    if (m_limit <= 0 || m_limit > maxValue() * 4)
        return;
    if (!m_limitLine) {
        m_limitLine = new QLineSeries;
        QPen pen(Qt::red);
        pen.setStyle(Qt::DashLine);
        m_limitLine->setPen(pen);
        chart()->addSeries(m_limitLine);
        m_limitLine->attachAxis(timeAxis());
        m_limitLine->attachAxis(valueAxis());
    }
    m_limitLine->setName(tr("fd limit (%1)").arg(m_limit));
    m_limitLine->replace({{0, double(m_limit)}, {maxTime(), double(m_limit)}});
    maxValue() = std::max(maxValue(), double(m_limit));
}

QImage TimelineChart::render() const
{
    return view()->grab().toImage();
}

} // namespace servelab::ui
