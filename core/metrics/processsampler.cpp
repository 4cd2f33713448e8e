// SPDX-License-Identifier: Apache-2.0
#include "processsampler.h"

#include "clock.h"

#include <chrono>
#include <ctime>

namespace servelab::metrics {

ProcessSampler::~ProcessSampler()
{
    stop();
}

bool ProcessSampler::start(pid_t pid, std::string *error, bool followChildren)
{
    stop();
    {
        std::lock_guard lock(m_probeMutex);
        if (!m_probe.open(pid, followChildren, error))
            return false;
    }
    {
        std::lock_guard lock(m_mutex);
        m_stop = false;
    }
    m_thread = std::thread([this] { loop(); });
    return true;
}

void ProcessSampler::stop()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

std::vector<ProcessSample> ProcessSampler::drain()
{
    std::lock_guard lock(m_mutex);
    std::vector<ProcessSample> out;
    out.swap(m_samples);
    return out;
}

void ProcessSampler::sampleNow()
{
    ProcessSample sample;
    {
        std::lock_guard lock(m_probeMutex);
        sample = m_probe.sample(true);
    }
    std::lock_guard lock(m_mutex);
    m_samples.push_back(sample);
    if (m_listener)
        m_listener(sample);
}

void ProcessSampler::setListener(std::function<void(const ProcessSample &)> listener)
{
    std::lock_guard lock(m_mutex);
    m_listener = std::move(listener);
}

std::vector<OpenFd> ProcessSampler::openFds()
{
    std::lock_guard lock(m_probeMutex);
    return m_probe.openFds();
}

void ProcessSampler::loop()
{
    std::int64_t next = monotonicMicros();
    for (;;) {
        ProcessSample sample;
        {
            std::lock_guard lock(m_probeMutex);
            sample = m_probe.sample();
        }
        timespec cpu{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        m_cpuNanos.store(std::int64_t(cpu.tv_sec) * 1'000'000'000 + cpu.tv_nsec);
        ++m_taken;
        std::unique_lock lock(m_mutex);
        m_samples.push_back(sample);
        if (m_listener)
            m_listener(sample);
        // On the 100 ms grid; after a stall, the next tick rather than a burst of catch-ups.
        next += periodMicros;
        const std::int64_t now = monotonicMicros();
        if (next < now)
            next = now + periodMicros - (now - next) % periodMicros;
        if (m_wake.wait_for(lock, std::chrono::microseconds(next - now), [this] { return m_stop; }))
            return;
    }
}

} // namespace servelab::metrics
