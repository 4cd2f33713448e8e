#pragma once

#include <QColor>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>

class QAbstractAxis;
class QChart;

namespace servelab::ui {

// One line of a chart drawn point by point (a target's measurement at one size, one
// repetition): the first line of a target picks its colour and legend entry, later lines of that
// target reuse the colour and stay out of the legend. `colours` carries the targets seen so far.
void addPointSeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const QString &target,
                    const QList<QPointF> &line, QHash<QString, QColor> &colours);

} // namespace servelab::ui
