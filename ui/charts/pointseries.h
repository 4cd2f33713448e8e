// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QHash>
#include <QList>
#include <QPen>
#include <QPointF>
#include <QString>

#include <cstdint>

class QAbstractAxis;
class QAbstractSeries;
class QCategoryAxis;
class QChart;
class QValueAxis;
class QLineSeries;

namespace servelab::ui {

// Where a file size sits on the charts' size axis: log2 of its bytes.
double log2Of(quint64 bytes);
// The size axis of a chart by file size: a category at each size, half a step of room on
// either side (4K to 32M when there are none).
void setSizeCategories(QCategoryAxis *axis, const QList<quint64> &sizes);
// Takes the lines a chart drew last time out of it, and deletes them.
void removeLines(QChart *chart, QList<QAbstractSeries *> *lines);

// The pen of each target a chart has drawn, by name.
using TargetPens = QHash<QString, QPen>;

// The name of a target of an overlaid run ("epoll+sendfile (#12)"), and the target's own name
// back from it (empty for a name that is not an overlay's).
QString overlayName(const QString &target, qint64 experimentId);
QString overlaidTarget(const QString &name);
// "target, detail", with an overlay's "(#id)" kept at the end ("epoll+copy, 4K (#12)").
QString withDetail(const QString &target, const QString &detail);

// The targets of `points` in the order their colours go: each as it first appears (a DNF
// point too, so that a target that failed keeps its colour and the next keeps its own), then
// the overlays' targets that the shown run lacks. Every chart, legend and table swatch of a
// view takes its colours from this order, so a target has one colour on every tab.
QStringList targetOrder(const QList<lab::PointResult> &points);
// The pens of those targets for a chart's theme: the i-th of targetOrder() takes targetPen(i);
// an overlay's name ("t (#12)") its target's colour, dashed.
TargetPens targetPens(const QChart *chart, const QList<lab::PointResult> &points);

// `pen` a step paler (towards the chart's background) for each of `steps`: a target's curves
// at several sizes in its one colour.
QPen paler(QPen pen, int steps, bool dark);

// The pen of `target` in a chart: the one it has, else the next of targetPen() for the
// chart's theme; an overlaid run's target takes its own target's colour, dashed.
QPen penFor(const QChart *chart, const QString &target, TargetPens &pens);

// One line of a chart drawn point by point (a target's measurement at one size, one
// repetition): the first line of a target picks its pen (penFor) and legend entry, later lines
// of that target reuse the pen and stay out of the legend. `pens` carries the targets seen so far.
QLineSeries *addPointSeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y,
                            const QString &target, const QList<QPointF> &line, TargetPens &pens);

// The line of the point being measured in a chart over the run's time: fed (monotonic µs,
// value) pairs, drawn in seconds from `origin` (set by the first pair if the chart had none),
// decimated to `limit` points and replaced in place; the axes grow to hold it unless the user
// holds the view (ChartView). reset() when the chart's series are rebuilt.
class LiveSeries
{
public:
    struct Chart
    {
        QChart *chart;
        QValueAxis *x;
        QValueAxis *y;
        TargetPens &pens;
        std::int64_t &origin;
        double &maxX;
        double &maxY;
    };
    void update(const Chart &c, const QString &target, const QList<QPointF> &microsAndValue,
                int limit);
    void reset() { m_series = nullptr; }
    void remove(QChart *chart); // takes the line out of the chart
    int count() const;

private:
    QLineSeries *m_series = nullptr;
};

// "target, y-axis title: value, x-axis title: where" for a hovered point of such a line (the
// percentile for the latency chart's axis of nines, seconds otherwise).
QString hoverText(const QString &target, const QAbstractAxis *x, const QAbstractAxis *y,
                  const QPointF &p);

// At most `most` points of `line` (2 per bucket: its lowest and its highest, so that spikes
// stay), for series that grow as a run goes on.
QList<QPointF> decimated(const QList<QPointF> &line, int most);

} // namespace servelab::ui
