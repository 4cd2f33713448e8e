// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointseries.h"
#include "runchart.h"
#include "tunemarkers.h"

class QValueAxis;

namespace servelab::ui {

// A value over the run's time, one line per point (a target's repetitions do not join across
// the others), the points one after the other on the run's clock (seconds since the first
// point), a target in one colour and one legend entry; the point being measured drawn as it
// grows. What the value is comes from the subclass: a point's (monotonic µs, value) pairs.
class PointLinesChart : public RunChart
{
    Q_OBJECT
public:
    PointLinesChart(const QString &title, const QString &valueTitle, QWidget *parent = nullptr);

    void setPoints(const QList<lab::PointResult> &points);
    // One more finished point, after the others (it replaces its live line).
    void addPoint(const lab::PointResult &point);
    void addPoint(const lab::PointResult &point, const RunView &run) override;
    // The point being measured: (monotonic µs, value), decimated to at most liveLimit points
    // and replaced in place, and the changes tuned in so far, marked at once; setPoints()
    // ends it.
    void setLive(const QString &target, const QList<QPointF> &microsAndValue,
                 const std::vector<lab::TuneEvent> &tunes = {});
    static constexpr int liveLimit = 2000;
    int liveCount() const; // points the live line draws
    int seriesCount() const;
    int sampleCount() const;                          // drawn, over every series
    int tuneCount() const { return m_tunes.count(); } // changes marked

protected:
    // Where a point begins on the run's clock (-1: it has nothing to draw), and its line.
    virtual std::int64_t originOf(const lab::PointResult &point) const = 0;
    virtual QList<QPointF> lineOf(const lab::PointResult &point) const = 0;
    // Every series was taken away; a point's line was added (the time axis and value range
    // already hold it).
    virtual void cleared() {}
    virtual void appended(const lab::PointResult &point) { Q_UNUSED(point); }
    void fit() override;

    QValueAxis *timeAxis() const { return m_time; }
    QValueAxis *valueAxis() const { return m_value; }
    const TargetPens &pens() const { return m_pens; }
    double maxTime() const { return m_maxTime; }
    double &maxValue() { return m_maxValue; }

private:
    void appendPoint(const lab::PointResult &point);

    QValueAxis *m_time;
    QValueAxis *m_value;
    int m_samples = 0;
    TargetPens m_pens;
    std::int64_t m_origin = -1; // µs of the run's start
    double m_maxTime = 1;
    double m_maxValue = 1;
    LiveSeries m_live;
    TuneMarkers m_tunes;
};

} // namespace servelab::ui
