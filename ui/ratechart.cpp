#include "ratechart.h"

#include "pointseries.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

RateChart::RateChart(QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_time(new QValueAxis), m_rate(new QValueAxis)
{
    m_chart->setTitle(tr("Requests per second"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_time->setTitleText(tr("Seconds since the first point"));
    m_time->setLabelFormat(QStringLiteral("%.1f"));
    m_rate->setTitleText(tr("Requests/s (100 ms intervals)"));
    m_rate->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_rate, Qt::AlignLeft);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setRubberBand(QChartView::RectangleRubberBand); // drag to zoom, right-click back
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void RateChart::setPoints(const QList<lab::PointResult> &points)
{
    m_chart->removeAllSeries();
    m_live.reset();
    m_samples = 0;
    std::int64_t origin = -1;
    for (const auto &p : points)
        if (!p.clientSamples.empty())
            origin = origin < 0 ? p.startedAtMicros : std::min(origin, p.startedAtMicros);
    m_origin = origin;
    QHash<QString, QColor> &colours = m_colours;
    colours.clear();
    double most = 1;
    double last = 1;
    for (const auto &p : points) {
        QList<QPointF> line;
        for (const auto &s : p.clientSamples) {
            if (s.intervalMicros <= 0)
                continue;
            const double t = double(p.startedAtMicros + s.endMicros - origin) / 1e6;
            const double rate = double(s.completed) * 1e6 / double(s.intervalMicros);
            line.append({t, rate});
            most = std::max(most, rate);
            last = std::max(last, t);
        }
        if (line.isEmpty())
            continue;
        m_samples += int(line.size());
        addPointSeries(m_chart, m_time, m_rate, p.target, line, colours);
    }
    m_maxTime = last;
    m_maxRate = most;
    m_time->setRange(0, last);
    m_rate->setRange(0, most * 1.1);
    m_rate->applyNiceNumbers();
}

void RateChart::setLive(const QString &target, const QList<QPointF> &microsAndRate)
{
    m_live.update({m_chart, m_time, m_rate, m_colours, m_origin, m_maxTime, m_maxRate}, target,
                  microsAndRate, liveLimit);
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
