// SPDX-License-Identifier: Apache-2.0
#include "runcontrol.h"

#include "lab/targets/target.h"
#include "metrics/clock.h"

namespace servelab::lab {

void RunControl::pause()
{
    std::lock_guard lock(m_mutex);
    m_paused = true;
}

void RunControl::resume()
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
    }
    m_wake.notify_all();
}

void RunControl::cancel()
{
    {
        std::lock_guard lock(m_mutex);
        m_cancelled.store(true);
        if (m_interrupt)
            m_interrupt();
    }
    m_wake.notify_all();
}

bool RunControl::isPaused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

bool RunControl::proceed()
{
    std::unique_lock lock(m_mutex);
    m_wake.wait(lock, [this] { return !m_paused || m_cancelled.load(); });
    return !m_cancelled.load();
}

void RunControl::setInterrupt(std::function<void()> interrupt)
{
    std::lock_guard lock(m_mutex);
    m_interrupt = std::move(interrupt);
    if (m_interrupt && m_cancelled.load())
        m_interrupt();
}

void RunControl::setTarget(Target *target, std::function<void(const TuneEvent &)> heard)
{
    std::lock_guard lock(m_targetMutex);
    m_target = target;
    m_heard = std::move(heard);
}

bool RunControl::tune(const QStringList &assignments, QString *error)
{
    std::lock_guard lock(m_targetMutex);
    if (!m_target) {
        *error = QStringLiteral("no server is running: changes apply while a point is measured");
        return false;
    }
    TuneEvent event;
    event.change = assignments.join(u' ');
    event.atMicros = metrics::monotonicMicros(); // the server takes it before it answers
    const bool made = m_target->tune(assignments, error);
    if (!made)
        event.error = *error;
    m_tuned.push_back(event);
    if (m_heard)
        m_heard(event);
    return made;
}

QStringList RunControl::liveOptions()
{
    std::lock_guard lock(m_targetMutex);
    return m_target ? m_target->liveOptions() : QStringList();
}

std::vector<TuneEvent> RunControl::takeTuned()
{
    std::lock_guard lock(m_targetMutex);
    return std::exchange(m_tuned, {});
}

} // namespace servelab::lab
