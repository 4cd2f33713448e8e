// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtCore/qnamespace.h>

class QChart;
class QChartView;
class QColor;
class QPen;
class QValueAxis;
class QWidget;

namespace servelab::ui {

// What every chart here starts as: titled, themed for the application's palette (dark or
// light), without animations (live series are replaced, never animated), its legend at the
// bottom. Call before adding series: a theme sets their colours.
void frameChart(QChart *chart, const QString &title);
// Titles `axis`, gives its labels `decimals` digits after the point, and adds it to `chart` on
// `side` (Qt::AlignBottom for the time of the time charts, AlignLeft or AlignRight for values).
void addAxis(QChart *chart, QValueAxis *axis, const QString &title, int decimals,
             Qt::Alignment side);
// The view of `chart` filling `owner`: antialiased, zoom and pan (ChartView).
QChartView *fillWithView(QWidget *owner, QChart *chart);

// Whether the application's palette is a dark one (its window colour darker than its text).
bool darkPalette();

// The pen of a chart's index-th target: twelve hues that read on the light and the dark theme,
// then the same hues dash-dotted, then dotted, so that no two targets look alike.
QPen targetPen(int index, bool dark);

// `axis` from 0 to the first round number at or above `max` (1, 2, 2.5, 3, 4, 5, 6 or 8 times
// a power of ten) with ticks at round steps: data to 40,000 ends at 40,000 or 50,000, not at
// the 60,000 Qt's applyNiceNumbers() may pick.
void setRoundRange(QValueAxis *axis, double max);
// Marks that are not targets (the point starts on the fd chart): grey that reads on either.
QColor neutralColour(bool dark);

} // namespace servelab::ui
