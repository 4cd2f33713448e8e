// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runchart.h"
#include "tunemarkers.h"

#include <QList>
#include <QWidget>

#include <array>
#include <cstdint>

class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace servelab::ui {

// The server's descriptors by type over the run, stacked (sockets, files, pipes, anon inodes,
// other), the fd limit as a line, a marker where each point began, in red the points where the
// server met EMFILE (hover for which and how often), and an orange triangle at the end of a
// point that left descriptors open (hover for which: "fd 12 file /root/4K.bin"). Samples that did
// not read the types (a process with many descriptors lists them every few samples) carry the last
// split, scaled to their exact total.
class FdTypesChart : public RunChart
{
    Q_OBJECT
public:
    explicit FdTypesChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override { setPoints(run.points); }
    void addPoint(const lab::PointResult &point, const RunView &) override { addPoint(point); }
    QString dataCsv(const RunView &run) const override;

    void setPoints(const QList<lab::PointResult> &points);
    // One more finished point, after the others: its samples appended, nothing redrawn.
    void addPoint(const lab::PointResult &point);
    int areaCount() const { return 5; }
    int sampleCount() const { return m_samples; }
    int pointMarkers() const;
    int emfileMarkers() const;
    int leakMarkers() const;
    int tuneCount() const { return m_tunes.count(); } // changes marked
    QString leakText(int marker) const;               // what hovering the marker shows
    // The stacked top (every type) at sample i: equals that sample's total.
    double stackTopAt(int sample) const;
    double layerTopAt(int layer, int sample) const; // 0: sockets … 4: other (the stack's top)
    int drawnCount() const;                         // points each layer draws
    static constexpr int drawLimit = 600; // per layer: five filled areas cost their points to paint

protected:
    void fit() override;

private:
    QValueAxis *m_time;
    QValueAxis *m_fds;
    QList<QLineSeries *> m_bounds; // the top of each type, cumulative
    QLineSeries *m_limit;
    QScatterSeries *m_starts;
    QScatterSeries *m_emfile;
    QScatterSeries *m_leaks;
    QList<QString> m_startText;
    QList<QString> m_emfileText;
    QList<QString> m_leakText;
    TuneMarkers m_tunes;
    int m_samples = 0;
    // Where the drawing stands, for the next point: the clock's origin, the last split read and
    // its total (carried to samples without types), the tallest total, the end, the limit.
    std::array<QList<QPointF>, 5> m_tops; // every sample's cumulative top, per layer
    std::int64_t m_origin = -1;
    std::array<double, 5> m_last{};
    double m_lastTotal = 0;
    double m_most = 1;
    double m_end = 1;
    int m_limitValue = -1;

    void appendPoint(const lab::PointResult &point);
};

} // namespace servelab::ui
