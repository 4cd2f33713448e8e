#pragma once

#include <QColor>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

#include <cstdint>

class QAbstractAxis;
class QChart;
class QValueAxis;
class QLineSeries;

namespace servelab::ui {

// One line of a chart drawn point by point (a target's measurement at one size, one
// repetition): the first line of a target picks its colour and legend entry, later lines of that
// target reuse the colour and stay out of the legend. `colours` carries the targets seen so far.
QLineSeries *addPointSeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y,
                            const QString &target, const QList<QPointF> &line,
                            QHash<QString, QColor> &colours);

// The line of the point being measured in a chart over the run's time: fed (monotonic µs,
// value) pairs, drawn in seconds from `origin` (set by the first pair if the chart had none),
// decimated to `limit` points and replaced in place; the axes grow to hold it. reset() when the
// chart's series are rebuilt.
class LiveSeries
{
public:
    struct Chart
    {
        QChart *chart;
        QValueAxis *x;
        QValueAxis *y;
        QHash<QString, QColor> &colours;
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
