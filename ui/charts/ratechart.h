#pragma once

#include "lab/pointresult.h"
#include "pointseries.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QValueAxis;

namespace servelab::ui {

// Requests per second over the run, from the client's 100 ms samples: one line per point, the
// points one after the other on the run's clock (seconds since the first point began), a
// target in one colour. Where a server stalls, warms up or slows as descriptors run out.
class RateChart : public QWidget
{
    Q_OBJECT
public:
    explicit RateChart(QWidget *parent = nullptr);

    void setPoints(const QList<lab::PointResult> &points);
    // One more finished point, after the others (it replaces its live line).
    void addPoint(const lab::PointResult &point);
    // The point being measured, drawn as it grows: (end of each 100 ms interval in monotonic
    // µs, requests/s), decimated and replaced in place; setPoints() ends it.
    void setLive(const QString &target, const QList<QPointF> &microsAndRate);
    int liveCount() const;
    static constexpr int liveLimit = 2000;
    int seriesCount() const;
    int sampleCount() const;
    QChartView *view() const;

private:
    QChart *m_chart;
    QChartView *m_view;
    QValueAxis *m_time;
    QValueAxis *m_rate;
    int m_samples = 0;
    TargetPens m_pens;
    std::int64_t m_origin = -1;
    double m_maxTime = 1;
    double m_maxRate = 1;
    LiveSeries m_live;

    void appendPoint(const lab::PointResult &point);
    void fit();
};

} // namespace servelab::ui
