// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <span>

namespace servelab::remote {

// Nanoseconds on this host's CLOCK_MONOTONIC (what each agent reads on its own host).
qint64 monotonicNanos();

// One NTP-style ping: the coordinator's clock when the request left and when the answer came
// back, and the agent's clock when it answered.
struct ClockSample
{
    qint64 sentNs = 0;
    qint64 agentNs = 0;
    qint64 receivedNs = 0;
    qint64 roundTripNs() const { return receivedNs - sentNs; }
};

// agent clock = coordinator clock + offsetNs, within ±errorNs: from the ping with the shortest
// round trip (the one least delayed on either leg), assuming its two legs took as long; the
// error bound is half that round trip, whatever the legs really took.
struct ClockOffset
{
    qint64 offsetNs = 0;
    qint64 errorNs = 0;
    qint64 roundTripNs = 0; // the chosen ping's
    int samples = 0;
    bool valid() const { return samples > 0; }
    qint64 toAgent(qint64 coordinatorNs) const { return coordinatorNs + offsetNs; }
    qint64 toCoordinator(qint64 agentNs) const { return agentNs - offsetNs; }
};

ClockOffset estimateClockOffset(std::span<const ClockSample> samples);

} // namespace servelab::remote
