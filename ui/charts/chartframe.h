#pragma once

#include <QString>

class QChart;
class QChartView;
class QColor;
class QPen;
class QWidget;

namespace servelab::ui {

// What every chart here starts as: titled, themed for the application's palette (dark or
// light), without animations (live series are replaced, never animated), its legend at the
// bottom. Call before adding series: a theme sets their colours.
void frameChart(QChart *chart, const QString &title);
// The view of `chart` filling `owner`: antialiased, zoom and pan (ChartView).
QChartView *fillWithView(QWidget *owner, QChart *chart);

// Whether the application's palette is a dark one (its window colour darker than its text).
bool darkPalette();

// The pen of a chart's index-th target: twelve hues that read on the light and the dark theme,
// then the same hues dash-dotted, then dotted, so that no two targets look alike.
QPen targetPen(int index, bool dark);
// Marks that are not targets (the point starts on the fd chart): grey that reads on either.
QColor neutralColour(bool dark);

} // namespace servelab::ui
