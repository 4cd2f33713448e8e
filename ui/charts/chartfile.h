#pragma once

#include <QString>

class QChartView;

namespace servelab::ui {

// A chart written to a file, atomically (QSaveFile): nothing half-written on failure, and
// *error names the file and the writer's reason.
namespace chartfile {

// PNG of the view at its size times `scale` (2: for High-DPI screens and print).
bool writePng(QChartView *view, const QString &path, QString *error, qreal scale = 1);
// SVG of the chart's scene: vectors, titled with the chart's title.
bool writeSvg(QChartView *view, const QString &path, QString *error);

} // namespace chartfile
} // namespace servelab::ui
