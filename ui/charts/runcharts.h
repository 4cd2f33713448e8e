// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/pointresult.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace servelab::ui {

// The charts of a finished run, rendered without a window (servelab-cli run --out), each as
// PNG and SVG: throughput (KiB/s by file size, repetitions averaged), fds (the server's
// descriptors over the run), latency (by percentile, at the smallest and largest size) and
// rate (requests/s over the run). Each file is written atomically; false with *error set.
bool writeRunCharts(const QList<lab::PointResult> &points, const QString &folder,
                    QStringList *written, QString *error);

} // namespace servelab::ui
