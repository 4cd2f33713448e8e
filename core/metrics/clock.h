// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <ctime>

namespace servelab::metrics {

// Microseconds on CLOCK_MONOTONIC: the one clock that client samples, server samples and
// latencies share.
inline std::int64_t monotonicMicros()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// CPU time of the calling thread in microseconds: what a piece of work costs the machine,
// whatever else it had to wait for.
inline std::int64_t threadCpuMicros()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

} // namespace servelab::metrics
