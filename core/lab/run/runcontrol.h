// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace servelab::lab {

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

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_paused = false;
    std::atomic<bool> m_cancelled{false};
    std::function<void()> m_interrupt;
};

} // namespace servelab::lab
