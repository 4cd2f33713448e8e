// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/pointresult.h"
#include "pointseries.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QChart;
class QComboBox;
class QChartView;
class QValueAxis;

namespace servelab::ui {

// Requests per second, or KiB/s, over the run, from the client's 100 ms samples (a choice above
// the chart): one line per point, the points one after the other on the run's clock (seconds
// since the first point began), a target in one colour. Where a server stalls, warms up or
// slows as descriptors run out.
class RateChart : public QWidget
{
    Q_OBJECT
public:
    enum class Measure
    {
        Requests,
        Kib
    };
    explicit RateChart(QWidget *parent = nullptr);

    Measure measure() const { return m_measure; }
    // Draws nothing by itself: the owner draws the points again (measureChanged()).
    void setMeasure(Measure measure);
    // What a client sample gives in the measure shown, per second.
    double valueOf(std::uint64_t completed, std::uint64_t bytes, std::int64_t intervalMicros) const;

    void setPoints(const QList<lab::PointResult> &points);
    // One more finished point, after the others (it replaces its live line).
    void addPoint(const lab::PointResult &point);
    // The point being measured, drawn as it grows: (end of each 100 ms interval in monotonic
    // µs, the measure shown), decimated and replaced in place; setPoints() ends it.
    void setLive(const QString &target, const QList<QPointF> &microsAndRate);
    int liveCount() const;
    static constexpr int liveLimit = 2000;
    int seriesCount() const;
    QString valueTitle() const; // the value axis's title

    int sampleCount() const;
    QChartView *view() const;

Q_SIGNALS:
    void measureChanged(); // the user chose the other measure

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
    Measure m_measure = Measure::Requests;
    QComboBox *m_choice;

    void appendPoint(const lab::PointResult &point);
    void fit();
};

} // namespace servelab::ui
