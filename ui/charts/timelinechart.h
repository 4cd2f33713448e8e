// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/pointresult.h"
#include "pointseries.h"

#include <QHash>
#include <QImage>
#include <QList>
#include <QWidget>

class QChart;
class QLineSeries;
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
    // One more finished point, after the others (it replaces its live line).
    void addPoint(const lab::PointResult &point);
    // The point being measured, drawn as it grows: (sample time in monotonic µs, open fds),
    // decimated to at most liveLimit points and replaced in place; setPoints() ends it.
    void setLive(const QString &target, const QList<QPointF> &microsAndFds);
    int liveCount() const; // points the live line draws
    static constexpr int liveLimit = 2000;
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
    TargetPens m_pens;
    std::int64_t m_origin = -1; // µs of the first sample drawn
    double m_maxTime = 1;
    double m_maxFds = 1;
    LiveSeries m_live;
    QLineSeries *m_limitLine = nullptr;
    int m_limit = -1;

    void appendPoint(const lab::PointResult &point);
    void fit();
};

} // namespace servelab::ui
