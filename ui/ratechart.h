#pragma once

#include "lab/pointresult.h"

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
    int seriesCount() const;
    int sampleCount() const;
    QChartView *view() const;

private:
    QChart *m_chart;
    QChartView *m_view;
    QValueAxis *m_time;
    QValueAxis *m_rate;
    int m_samples = 0;
};

} // namespace servelab::ui
