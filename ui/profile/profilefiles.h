// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace servelab::ui {

// The profiles of a finished run, without a window (servelab-cli run --out): for each
// profiled point <target>-<size>.on-cpu.folded and .off-cpu.folded (for flamegraph.pl,
// speedscope or inferno) and the flame graphs on-cpu.svg and lock-waits.svg, next to its
// perf.data. Each file is written atomically; false with *error set. `written` gets a count.
bool writeProfiles(const QList<lab::PointResult> &points, const QString &folder,
                   QStringList *written, QString *error);

} // namespace servelab::ui
