// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/sweepspec.h"

#include <QList>
#include <QStringList>

namespace servelab::lab {

// The label of each target of an experiment in tables and charts: its mode, template, program
// or URL and its variant ("sendfile-threshold=64K c=10"), with what sets it apart (thread count,
// fd limit, options, or its place) when two would otherwise read the same.
QStringList targetLabels(const QList<SweepSpec> &targets);

} // namespace servelab::lab
