// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runchart.h"

#include <QList>
#include <QWidget>

class QCategoryAxis;
class QLabel;
class QToolButton;
class QChart;
class QChartView;
class QValueAxis;

namespace servelab::ui {

// Latency by percentile, as HdrHistogram plots it: the percentile axis stretched towards the
// tail (0 %, 90 %, 99 %, 99.9 %, … equally spaced), latency in milliseconds. One curve per
// target and size, a target's repetitions merged into one histogram; a curve ends where the
// requests measured stop resolving the percentiles (1,000 requests: at 99.9 %).
class LatencyChart : public RunChart
{
    Q_OBJECT
public:
    explicit LatencyChart(QWidget *parent = nullptr);

    // The curves at the sizes picked above the chart; none picked (or none of them measured):
    // the smallest and the largest size measured. The row above says which are shown.
    void draw(const RunView &run) override { setPoints(run.overlaid, m_picked); }
    // The curves as drawn (`run` is drawn already): series, percentile, latency in ms.
    QString dataCsv(const RunView &run) const override;

    void setPoints(const QList<lab::PointResult> &points, QList<quint64> sizes = {});
    int seriesCount() const;
    // The sizes to draw from now on (empty: the default), as the menu above the chart sets them.
    void pickSizes(const QList<quint64> &sizes);
    QString shownText() const;  // what the row above the chart says is shown
    double tailReached() const; // the deepest percentile drawn, as nines (3: 99.9 %)

private:
    struct Curve
    {
        QString name;
        QList<std::pair<double, double>> percentileAndMs;
    };
    QList<Curve> m_curves;
    QList<quint64> m_picked;
    QLabel *m_shown;
    QToolButton *m_sizes;
    QCategoryAxis *m_percentile;
    QValueAxis *m_latency;
    double m_nines = 0;
    int m_axisNines = 1;
    double m_slowest = 0;

    void fit() override;
};

} // namespace servelab::ui
