#include "timelinechart.h"

#include "pointseries.h"

#include <QChart>
#include <QChartView>
#include <QHash>
#include <QLegend>
#include <QLineSeries>
#include <QMap>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent), m_chart(new QChart), m_time(new QValueAxis), m_fds(new QValueAxis)
{
    m_chart->setTitle(tr("Server file descriptors"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_time->setTitleText(tr("Seconds since the first point"));
    m_time->setLabelFormat(QStringLiteral("%.1f"));
    m_fds->setTitleText(tr("Open fds"));
    m_fds->setLabelFormat(QStringLiteral("%.0f"));
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_fds, Qt::AlignLeft);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setRubberBand(QChartView::RectangleRubberBand); // drag to zoom, right-click back
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void TimelineChart::setPoints(const QList<lab::PointResult> &points)
{
    m_chart->removeAllSeries();
    m_live.reset();
    m_samples = 0;
    m_targets = 0;
    std::int64_t origin = -1;
    for (const auto &p : points)
        for (const auto &s : p.serverSamples)
            origin = origin < 0 ? s.atMicros : std::min(origin, s.atMicros);
    m_origin = origin;
    // One line per point, so that a target's repetitions do not join across the others; a
    // target keeps one colour and one legend entry.
    QHash<QString, QColor> &colours = m_colours;
    colours.clear();
    double maxFds = 1;
    double maxTime = 1;
    int limit = -1;
    for (const auto &p : points) {
        QList<QPointF> line;
        for (const auto &s : p.serverSamples) {
            if (!s.alive)
                continue;
            const double t = double(s.atMicros - origin) / 1e6;
            line.append({t, double(s.total)});
            maxFds = std::max(maxFds, double(s.total));
            maxTime = std::max(maxTime, t);
            limit = std::max(limit, s.fdLimit);
        }
        if (line.isEmpty())
            continue;
        m_samples += int(line.size());
        addPointSeries(m_chart, m_time, m_fds, p.target, line, colours);
        m_targets = int(colours.size());
    }
    // The limit, when it is in sight (a limit of 20000 beside 30 fds would flatten the lines).
    if (limit > 0 && limit <= maxFds * 4) {
        auto *line = new QLineSeries;
        line->setName(tr("fd limit (%1)").arg(limit));
        line->replace({{0, double(limit)}, {maxTime, double(limit)}});
        QPen pen(Qt::red);
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        m_chart->addSeries(line);
        line->attachAxis(m_time);
        line->attachAxis(m_fds);
        maxFds = std::max(maxFds, double(limit));
    }
    m_maxTime = maxTime;
    m_maxFds = maxFds;
    m_time->setRange(0, maxTime);
    m_fds->setRange(0, maxFds * 1.1);
    m_fds->applyNiceNumbers();
}

void TimelineChart::setLive(const QString &target, const QList<QPointF> &microsAndFds)
{
    m_live.update({m_chart, m_time, m_fds, m_colours, m_origin, m_maxTime, m_maxFds}, target,
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
