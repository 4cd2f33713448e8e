// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointlineschart.h"

class QComboBox;

namespace servelab::ui {

// Requests per second, or KiB/s, over the run, from the client's 100 ms samples (a choice above
// the chart): one line per point, the points one after the other on the run's clock (seconds
// since the first point began), a target in one colour. Where a server stalls, warms up or
// slows as descriptors run out; for a run across machines, also each load agent's part.
class RateChart : public PointLinesChart
{
    Q_OBJECT
public:
    enum class Measure
    {
        Requests,
        Kib
    };
    explicit RateChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override;
    using PointLinesChart::addPoint;
    void addPoint(const lab::PointResult &point, const RunView &run) override;
    void drawLive(const LivePoint &live) override;
    QString dataCsv(const RunView &run) const override;

    Measure measure() const { return m_measure; }
    // A run across machines: the load hosts merged (the default), or a line per load agent
    // ("epoll+copy · load agent 2 (b)"), each from its own samples. Draws nothing by itself.
    void setEachAgent(bool each);
    bool eachAgent() const { return m_eachAgent; }
    // Its points with each load agent's lane as a point of its own (the others as they are).
    static QList<lab::PointResult> agentLanes(const QList<lab::PointResult> &points);
    // Draws nothing by itself: the owner draws the points again (drawAgain()).
    void setMeasure(Measure measure);
    // What a client sample gives in the measure shown, per second.
    double valueOf(std::uint64_t completed, std::uint64_t bytes, std::int64_t intervalMicros) const;
    QString valueTitle() const; // the value axis's title

protected:
    std::int64_t originOf(const lab::PointResult &point) const override;
    QList<QPointF> lineOf(const lab::PointResult &point) const override;

private:
    Measure m_measure = Measure::Requests;
    bool m_eachAgent = false;
    QComboBox *m_choice;
    QComboBox *m_agents; // shown for a run across machines
};

} // namespace servelab::ui
