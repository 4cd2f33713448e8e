// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "processtreeprobe.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace servelab::metrics {

// Samples one process (or the tree of processes under it) every 100 ms on a thread of its own, on the clock the client samples use
// (monotonicMicros), and keeps the samples until drained. It measures its own CPU time, so its
// cost can be reported next to what it measures.
class ProcessSampler
{
public:
    static constexpr std::int64_t periodMicros = 100'000;

    ProcessSampler() = default;
    ProcessSampler(const ProcessSampler &) = delete;
    ProcessSampler &operator=(const ProcessSampler &) = delete;
    ~ProcessSampler();

    // Starts sampling `pid`, with its descendants summed when `followChildren` (one sample at
    // once, then every period); false with *error set when the process cannot be read.
    bool start(pid_t pid, std::string *error, bool followChildren = false);
    // Stops within a moment and joins the thread; samples taken stay to be drained.
    void stop();
    bool running() const { return m_thread.joinable(); }
    std::vector<ProcessSample> drain();
    // A sample taken now, on the caller's thread, added to the others (a point's first and
    // last, however short the point). It always lists the descriptors' types, whatever the
    // periodic samples' budget: a point's timeline ends with what it left open, by type.
    void sampleNow();
    // The descriptors now, on the caller's thread (the leak check between points).
    std::vector<OpenFd> openFds();
    // Also hands every sample to `listener` as it is taken (a live view), on the sampling
    // thread or sampleNow()'s caller; null: none. Thread-safe.
    void setListener(std::function<void(const ProcessSample &)> listener);
    // CPU time the sampling thread has used, in seconds, and the samples it took.
    double ownCpuSeconds() const { return double(m_cpuNanos.load()) / 1e9; }
    std::uint64_t samplesTaken() const { return m_taken.load(); }

private:
    void loop();

    ProcessTreeProbe m_probe;
    std::mutex m_probeMutex; // the sampling thread and openFds() share the probe
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::vector<ProcessSample> m_samples;
    std::function<void(const ProcessSample &)> m_listener; // under m_mutex
    std::atomic<std::int64_t> m_cpuNanos{0};
    std::atomic<std::uint64_t> m_taken{0};
};

} // namespace servelab::metrics
