// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/tuneevent.h"

#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace servelab::lab {

class Target;

// Pause, resume and cancel of a run, from any thread. The runner asks proceed() before each
// point: a pause takes effect there (the point being measured is finished, not cut in half, and
// the target stays up); a cancel also stops the client measuring now, through the interrupt the
// runner installs around it.
class RunControl
{
public:
    void pause();
    void resume();
    void cancel();
    bool isPaused() const;
    bool isCancelled() const { return m_cancelled.load(); }

    // Blocks while paused; false once cancelled.
    bool proceed();
    // What cancel() calls to stop the measurement in progress (null: none in progress); called
    // at once if the run is already cancelled.
    void setInterrupt(std::function<void()> interrupt);

    // Changes to the target from outside the run (the window's Tune panel). The runner names
    // its target while it is up (null once it goes down) and `heard` hears each change made.
    void setTarget(Target *target, std::function<void(const TuneEvent &)> heard = {});
    // False with the reason: no built-in target is up, or the server refused (unchanged).
    bool tune(const QStringList &assignments, QString *error);
    // What may change now, name=value (empty: nothing is up that can be tuned).
    QStringList liveOptions();
    // The changes tune() made since the last call, oldest first: the runner keeps them with
    // the point they were made in.
    std::vector<TuneEvent> takeTuned();

private:
    std::mutex m_targetMutex; // held across a change: the target does not go down meanwhile
    Target *m_target = nullptr;
    std::function<void(const TuneEvent &)> m_heard;
    std::vector<TuneEvent> m_tuned;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_paused = false;
    std::atomic<bool> m_cancelled{false};
    std::function<void()> m_interrupt;
};

} // namespace servelab::lab
