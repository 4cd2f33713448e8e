// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/pointresult.h"
#include "pointseries.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QCategoryAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace servelab::ui {

// KiB/s against file size on a log₂ axis, one series per target, DNF points marked along the
// bottom. Like every chart here, a small class of its own over Qt Charts, so that a move to
// Qt Graphs touches the chart classes only.
class ThroughputChart : public QWidget
{
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget *parent = nullptr);

    void clear(const QList<quint64> &sizes);
    void addPoint(const lab::PointResult &point);
    // clear(sizes), then every point, drawn once (addPoint redraws at each: n² for a run).
    void setPoints(const QList<quint64> &sizes, const QList<lab::PointResult> &points);
    int pointCount(const QString &target) const;
    int dnfCount() const;
    // 95 % confidence-interval bars drawn (points measured more than once).
    int intervalCount() const { return int(m_bars.size()); }
    QString valueAxisTitle() const;

    // Renders the chart at its current size and writes it atomically; false with *error set.
    bool exportPng(const QString &path, QString *error) const;
    QImage render() const;
    QChartView *view() const { return m_view; }

private:
    struct Series
    {
        QLineSeries *line = nullptr;
        QScatterSeries *markers = nullptr;
    };
    Series &seriesFor(const QString &target);
    void rescale();
    void showHover(const QPointF &point, bool state, const QString &target);

    QChart *m_chart;
    QChartView *m_view;
    QCategoryAxis *m_sizeAxis;
    QValueAxis *m_rateAxis;
    QScatterSeries *m_dnf;
    QHash<QString, Series> m_series;
    TargetPens m_pens;
    QList<QLineSeries *> m_bars; // one vertical segment per interval
    QList<lab::PointResult> m_points;
    double m_unit = 1.0; // KiB/s per displayed unit
};

} // namespace servelab::ui
