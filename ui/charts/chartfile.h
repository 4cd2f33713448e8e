// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSize>
#include <QString>

class QChartView;

namespace servelab::ui {

// A chart written to a file, atomically (QSaveFile): nothing half-written on failure, and
// *error names the file and the writer's reason.
namespace chartfile {

// PNG of the chart laid out at `size` (empty: the view's) times `scale` (2: for High-DPI
// screens and print); the view keeps its own size on screen.
bool writePng(QChartView *view, const QString &path, QString *error, qreal scale = 1,
              QSize size = {});
// SVG of the chart's scene: vectors, titled with the chart's title.
bool writeSvg(QChartView *view, const QString &path, QString *error);

} // namespace chartfile
} // namespace servelab::ui
