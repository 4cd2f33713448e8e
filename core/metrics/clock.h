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

} // namespace servelab::metrics
