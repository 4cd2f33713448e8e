#pragma once

#include "lab/pointresult.h"

#include <QImage>
#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QValueAxis;

namespace servelab::ui {

// The server's open descriptors over the run, one series per target, points one after the
// other on the run's clock (seconds since its first point), with the fd limit drawn when the
// samples know it: where the seeds' "Too many open files" shows as a line meeting the limit.
class TimelineChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);

    void setPoints(const QList<lab::PointResult> &points);
    int seriesCount() const; // lines: one per point, and the limit
    int targetCount() const; // legend entries
    int sampleCount() const; // drawn, over every series
    QImage render() const;
    QChartView *view() const;

private:
    QChart *m_chart;
    QChartView *m_view;
    QValueAxis *m_time;
    QValueAxis *m_fds;
    int m_samples = 0;
    int m_targets = 0;
};

} // namespace servelab::ui
