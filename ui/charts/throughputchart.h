// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointseries.h"
#include "runchart.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QAbstractAxis;
class QCategoryAxis;
class QComboBox;
class QLogValueAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace servelab::ui {

// KiB/s against file size on a log₂ axis, one series per target, DNF points marked along the
// bottom. Like every chart here, a small class of its own over Qt Charts, so that a move to
// Qt Graphs touches the chart classes only.
class ThroughputChart : public RunChart
{
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget *parent = nullptr);
    ~ThroughputChart() override;

    // The KiB/s axis: logarithmic when the means span more than a decade (Auto, the default:
    // the seeds' 4K and 32M rows are 50 times apart), or as chosen above the chart.
    enum class Scale
    {
        Auto,
        Linear,
        Log
    };
    void setScale(Scale scale);
    bool logScale() const { return m_log; }

    void draw(const RunView &run) override { setPoints(run.sizes, run.overlaid); }
    void addPoint(const lab::PointResult &point, const RunView &) override { addPoint(point); }
    QString dataCsv(const RunView &run) const override;

    void clear(const QList<quint64> &sizes);
    void addPoint(const lab::PointResult &point);
    // clear(sizes), then every point, drawn once (addPoint redraws at each: n² for a run).
    void setPoints(const QList<quint64> &sizes, const QList<lab::PointResult> &points);
    int pointCount(const QString &target) const;
    int dnfCount() const;
    int clientBoundCount() const; // points ringed as client-bound
    // 95 % confidence-interval bars drawn (points measured more than once).
    int intervalCount() const { return int(m_bars.size()); }
    QString valueAxisTitle() const;

    // Renders the chart at its current size and writes it atomically; false with *error set.
    bool exportPng(const QString &path, QString *error) const;
    QImage render() const;

protected:
    void fit() override;

private:
    struct Series
    {
        QLineSeries *line = nullptr;
        QScatterSeries *markers = nullptr;
    };
    Series &seriesFor(const QString &target);
    void showHover(const QPointF &point, bool state, const QString &target);

    void useLogAxis(bool log);
    QAbstractAxis *valueAxis() const;

    QCategoryAxis *m_sizeAxis;
    QValueAxis *m_rateAxis;
    QLogValueAxis *m_logAxis;
    QComboBox *m_scaleBox;
    Scale m_scale = Scale::Auto;
    bool m_log = false;
    QScatterSeries *m_dnf;
    QScatterSeries *m_clientBound; // grey rings round the points that measured the client
    QScatterSeries *m_clipped;     // the ends of intervals drawn shorter than they are
    QHash<QString, Series> m_series;
    TargetPens m_pens;
    QList<QLineSeries *> m_bars; // one vertical segment per interval
    QList<lab::PointResult> m_points;
    double m_unit = 1.0; // KiB/s per displayed unit
};

} // namespace servelab::ui
