// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

namespace servelab::server {

// The heart of grizzly-sendfile's EqualBlocking algorithm: at most `maxActive` downloads are
// active; writer threads take them in turn, send one chunk and put them back at the tail, so
// every active download progresses at the same pace; the rest wait, first come first served.
template<typename T>
class DownloadScheduler
{
public:
    explicit DownloadScheduler(std::size_t maxActive) : m_maxActive(maxActive) {}

    // A new download: active if there is room, else queued.
    void add(T *download)
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_active < m_maxActive) {
                ++m_active;
                m_ready.push_back(download);
            } else {
                m_waiting.push_back(download);
                return;
            }
        }
        m_wake.notify_one();
    }
    // Blocks until an active download is free to be written, or stop(), or the caller is one of
    // the writers retire() asked for; false for those two.
    bool take(T **download)
    {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [&] { return m_stopping || m_retiring > 0 || !m_ready.empty(); });
        if (m_retiring > 0) {
            --m_retiring;
            return false;
        }
        if (m_stopping)
            return false;
        *download = m_ready.front();
        m_ready.pop_front();
        return true;
    }
    // The writer sent its chunk: the download goes to the back of the line.
    void putBack(T *download)
    {
        {
            std::lock_guard lock(m_mutex);
            m_ready.push_back(download);
        }
        m_wake.notify_one();
    }
    // The download (taken by the caller) is over: its slot goes to the first one waiting.
    void finish()
    {
        {
            std::lock_guard lock(m_mutex);
            if (m_waiting.empty() || m_active > m_maxActive) {
                --m_active;
                return;
            }
            m_ready.push_back(m_waiting.front());
            m_waiting.pop_front();
        }
        m_wake.notify_one();
    }
    // `count` writers fewer (the pool shrinks): the next ones to come for a download stop.
    void retire(std::size_t count)
    {
        {
            std::lock_guard lock(m_mutex);
            m_retiring += count;
        }
        m_wake.notify_all();
    }
    // Tuned while it runs: more active at once start now; with fewer, the active ones finish
    // and their slots go to the queue only once the count is below the new limit.
    void setMaxActive(std::size_t maxActive)
    {
        std::size_t started = 0;
        {
            std::lock_guard lock(m_mutex);
            m_maxActive = maxActive;
            while (m_active < m_maxActive && !m_waiting.empty()) {
                ++m_active;
                ++started;
                m_ready.push_back(m_waiting.front());
                m_waiting.pop_front();
            }
        }
        if (started > 0)
            m_wake.notify_all();
    }
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
    }

    std::size_t active() const
    {
        std::lock_guard lock(m_mutex);
        return m_active;
    }
    std::size_t waiting() const
    {
        std::lock_guard lock(m_mutex);
        return m_waiting.size();
    }

private:
    std::size_t m_maxActive;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<T *> m_ready;   // active and not being written now
    std::deque<T *> m_waiting; // beyond maxActive
    std::size_t m_active = 0;  // m_ready plus those held by writers
    std::size_t m_retiring = 0;
    bool m_stopping = false;
};

} // namespace servelab::server
