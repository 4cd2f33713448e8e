// SPDX-License-Identifier: Apache-2.0
#include "clocksync.h"

#include <ctime>

namespace servelab::remote {

qint64 monotonicNanos()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ClockOffset estimateClockOffset(std::span<const ClockSample> samples)
{
    ClockOffset best;
    for (const ClockSample &s : samples) {
        const qint64 rtt = s.roundTripNs();
        if (rtt < 0)
            continue;
        if (best.samples == 0 || rtt < best.roundTripNs) {
            // The midpoint of the round trip, without overflow for clocks far apart.
            best.offsetNs = s.agentNs - (s.sentNs + rtt / 2);
            best.errorNs = (rtt + 1) / 2;
            best.roundTripNs = rtt;
        }
        ++best.samples;
    }
    return best;
}

} // namespace servelab::remote
