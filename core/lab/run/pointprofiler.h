// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/spec/profilerequest.h"

#include <QString>

#include <functional>
#include <sys/types.h>

namespace servelab::lab {

// Profiles a point: runs its load once more with perf attached to the server
// (profile::PerfRecorder), reads the recording into on-CPU and off-CPU stacks and keeps the
// perf.data. The point's own figures are left as measured; the pass's rate against them is
// the profiling's overhead. Without perf, permission or tracepoints the point says why and
// the run goes on.
class PointProfiler
{
public:
    // perf.data files go to `folder` (made when first needed).
    PointProfiler(const ProfileRequest &request, const QString &folder);

    // `pid` and, with `tree`, its descendants; `inProcess`: this process, the client's threads
    // left out. `load` runs the point's load into the result it is given. The perf.data is
    // named after `target` and the point's size.
    void profile(const QString &target, pid_t pid, bool tree, bool inProcess, PointResult *point,
                 const std::function<void(PointResult *)> &load) const;

    // Where a run's profiles go when nobody said: the user's data folder, one per run.
    static QString defaultFolder();
    // A point's profile files' name before their suffix: "poller_copy_handoff_mutex-12".
    static QString fileStem(const QString &target, quint64 sizeBytes);

private:
    ProfileRequest m_request;
    QString m_folder;
};

} // namespace servelab::lab
