#include "pointseries.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace servelab::ui {

void addPointSeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y, const QString &target,
                    const QList<QPointF> &line, QHash<QString, QColor> &colours)
{
    auto *series = new QLineSeries;
    series->setName(target);
    series->replace(line);
    series->setPointsVisible(line.size() == 1); // a lone sample would draw nothing
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    if (const auto it = colours.constFind(target); it != colours.constEnd()) {
        series->setColor(*it);
        for (auto *marker : chart->legend()->markers(series))
            marker->setVisible(false);
    } else {
        colours.insert(target, series->color());
    }
}

} // namespace servelab::ui
