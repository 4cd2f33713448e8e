// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace servelab::ui {

// The charts of a finished run (every row of chartrow.cpp but those with nothing of this run
// to draw, RunChart::isEmpty), rendered without a window
// (servelab-cli run --out), each as <name>.png and <name>.svg at 1200×700. Each file is written
// atomically; false with *error set.
bool writeRunCharts(const QList<lab::PointResult> &points, const QString &folder,
                    QStringList *written, QString *error);

} // namespace servelab::ui
