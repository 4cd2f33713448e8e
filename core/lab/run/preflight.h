// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/spec/experimentspec.h"

#include <QString>
#include <QStringList>

namespace servelab::lab {

// What this machine will refuse of an experiment that is otherwise right, said before it runs
// (the wizard's review page), each in words that name the fix: sendfile over https where the
// kernel has no TLS (its points would be DNF), profiling where perf cannot run (the points
// would run unprofiled), profiled sizes the experiment does not measure. A real server that is
// not installed is ServerTemplate::notInstalled's, said beside these.
struct Preflight
{
    static QStringList warnings(const ExperimentSpec &spec);
};

} // namespace servelab::lab
