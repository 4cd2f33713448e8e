// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/tuneevent.h"
#include "lab/spec/tuneplan.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace servelab::lab {

class Target;

// Makes a spec's "tune" steps inside one point, on its own thread, each at its time from the
// point's start, while the client runs. finish() ends it and tells what was made (a step the
// point ended before is listed as not made); restore() then puts back the options the point
// started with, so the next point starts as the spec says.
class PointTuner
{
public:
    using Listener = std::function<void(const TuneEvent &)>;

    // Nothing happens without steps. `listener` (may be empty) hears each event as it is made.
    PointTuner(Target &target, const QList<TuneStep> &steps, std::int64_t startedAtMicros,
               Listener listener = {});
    ~PointTuner();
    PointTuner(const PointTuner &) = delete;
    PointTuner &operator=(const PointTuner &) = delete;

    std::vector<TuneEvent> finish();
    QString restore(); // empty, or why the options could not be put back

private:
    void run();

    Target &m_target;
    const QList<TuneStep> m_steps;
    const std::int64_t m_startedAtMicros;
    Listener m_listener;
    QStringList m_before; // the live options as the point started, name=value
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_finishing = false;
    std::vector<TuneEvent> m_events;
    QStringList m_changed; // the names a step changed
    std::thread m_thread;
};

} // namespace servelab::lab
