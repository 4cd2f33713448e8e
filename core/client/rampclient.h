// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "loadresult.h"
#include "stopsignal.h"
#include "thinktime.h"

namespace servelab::client {

// The `ramp` model with faban's (fhb) semantics: `concurrency` users, each a connection that
// requests, waits its think (or cycle) time and requests again, for ramp-up + steady +
// ramp-down. Only requests that start and end within the steady state count; ramp-up warms the
// server, ramp-down lets the steady state end under load. Validity checks as faban reports them.
class RampClient
{
public:
    struct Phases
    {
        std::int64_t rampUpMs = 0;
        std::int64_t steadyMs = 0;
        std::int64_t rampDownMs = 0;
    };
    struct Result
    {
        LoadResult steady;               // elapsed: the steady state's length
        std::uint64_t outsideSteady = 0; // requests of ramp-up and ramp-down, not counted
        int users = 0;
        // Little's law: users = X (R + Z), with X the steady throughput, R the mean response
        // time and Z the mean measured think time.
        double littleUsers = 0;
        bool littlePass = false;
        double thinkTargetMs = 0; // think (or cycle) time asked for
        double thinkActualMs = 0; // and measured in the steady state
        bool thinkPass = true;    // within the tolerance (always true without think time)
        static constexpr double tolerance = 0.05; // faban's validity checks: ±5 %
    };

    RampClient(ClientOptions options, int threads, Phases phases, ThinkTime think);
    RampClient(const RampClient &) = delete;
    RampClient &operator=(const RampClient &) = delete;

    Result run();
    void stop();

private:
    ClientOptions m_options;
    int m_threads;
    Phases m_phases;
    ThinkTime m_think;
    StopSignal m_stop;
};

} // namespace servelab::client
