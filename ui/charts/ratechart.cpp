// SPDX-License-Identifier: Apache-2.0
#include "ratechart.h"

#include "chartframe.h"
#include "chartview.h"

#include "pointseries.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

RateChart::RateChart(QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_time(new QValueAxis), m_rate(new QValueAxis)
{
    frameChart(m_chart, tr("Rate over the run"));
    addAxis(m_chart, m_time, tr("Seconds since the first point"), 1, Qt::AlignBottom);
    addAxis(m_chart, m_rate, tr("Requests/s (100 ms intervals)"), 0, Qt::AlignLeft);
    m_view = fillWithView(this, m_chart);
    m_choice = new QComboBox;
    m_choice->addItem(tr("Requests/s"));
    m_choice->addItem(tr("KiB/s"));
    m_choice->setToolTip(tr("What the lines show, per 100 ms interval of the client"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_choice);
    bar->addStretch();
    static_cast<QVBoxLayout *>(layout())->insertLayout(0, bar);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMeasure(index == 1 ? Measure::Kib : Measure::Requests);
        Q_EMIT measureChanged();
    });
    connect(static_cast<ChartView *>(m_view), &ChartView::released, this, [this] { fit(); });
}

// The axes around everything drawn, unless the user holds the view (zoomed or panned).
void RateChart::fit()
{
    if (ChartView::isHeld(m_chart))
        return;
    m_time->setRange(0, m_maxTime);
    m_time->applyNiceNumbers();
    m_rate->setRange(0, m_maxRate * 1.1);
    m_rate->applyNiceNumbers();
}

void RateChart::setPoints(const QList<lab::PointResult> &points)
{
    m_chart->removeAllSeries();
    m_live.reset();
    m_samples = 0;
    m_pens.clear();
    m_maxTime = 1;
    m_maxRate = 1;
    m_origin = -1;
    for (const auto &p : points)
        if (!p.clientSamples.empty())
            m_origin = m_origin < 0 ? p.startedAtMicros : std::min(m_origin, p.startedAtMicros);
    for (const auto &p : points)
        appendPoint(p);
    fit();
}

void RateChart::addPoint(const lab::PointResult &point)
{
    m_live.remove(m_chart); // the point's live line gives way to the whole point
    appendPoint(point);
    // During a run the axes only grow (the live line left room): a new range re-lays out every
    // line drawn so far.
    if (!ChartView::isHeld(m_chart) &&
        (m_maxTime > m_time->max() || m_maxRate * 1.1 > m_rate->max()))
        fit();
}

void RateChart::appendPoint(const lab::PointResult &point)
{
    if (point.clientSamples.empty())
        return;
    if (m_origin < 0)
        m_origin = point.startedAtMicros;
    QList<QPointF> line;
    for (const auto &s : point.clientSamples) {
        if (s.intervalMicros <= 0)
            continue;
        const double t = double(point.startedAtMicros + s.endMicros - m_origin) / 1e6;
        const double rate = valueOf(s.completed, s.bytesRead, s.intervalMicros);
        line.append({t, rate});
        m_maxRate = std::max(m_maxRate, rate);
        m_maxTime = std::max(m_maxTime, t);
    }
    if (line.isEmpty())
        return;
    m_samples += int(line.size());
    addPointSeries(m_chart, m_time, m_rate, point.target, line, m_pens);
}

void RateChart::setLive(const QString &target, const QList<QPointF> &microsAndRate)
{
    m_live.update({m_chart, m_time, m_rate, m_pens, m_origin, m_maxTime, m_maxRate}, target,
                  microsAndRate, liveLimit);
}

void RateChart::setMeasure(Measure measure)
{
    m_measure = measure;
    m_choice->setCurrentIndex(measure == Measure::Kib ? 1 : 0);
    m_rate->setTitleText(valueTitle());
}

QString RateChart::valueTitle() const
{
    return m_measure == Measure::Kib ? tr("KiB/s (100 ms intervals)")
                                     : tr("Requests/s (100 ms intervals)");
}

double RateChart::valueOf(std::uint64_t completed, std::uint64_t bytes,
                          std::int64_t intervalMicros) const
{
    if (intervalMicros <= 0)
        return 0;
    const double perSecond = 1e6 / double(intervalMicros);
    return m_measure == Measure::Kib ? double(bytes) / 1024.0 * perSecond
                                     : double(completed) * perSecond;
}

int RateChart::liveCount() const
{
    return m_live.count();
}

int RateChart::seriesCount() const
{
    return int(m_chart->series().size());
}

int RateChart::sampleCount() const
{
    return m_samples;
}

QChartView *RateChart::view() const
{
    return m_view;
}

} // namespace servelab::ui
