#pragma once

#include <QString>

class QChart;
class QChartView;
class QWidget;

namespace servelab::ui {

// What every chart here starts as: titled, without animations (live series are replaced, never
// animated), its legend at the bottom.
void frameChart(QChart *chart, const QString &title);
// The view of `chart` filling `owner`: antialiased, drag to zoom, right-click to zoom out.
QChartView *fillWithView(QWidget *owner, QChart *chart);

} // namespace servelab::ui
