// SPDX-License-Identifier: Apache-2.0
#include "runcontrol.h"

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

} // namespace servelab::lab
