// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <cstdint>
#include <vector>

namespace servelab::lab {

// A change made to the server while a point ran (a spec's "tune" step, or the Tune panel): a
// marker on the point's timelines, stored and exported with them.
struct TuneEvent
{
    // When it was asked for, on the timelines' clock (metrics::monotonicMicros): the server
    // makes the change before it answers, so what follows it on a timeline is its effect.
    std::int64_t atMicros = 0;
    QString change; // "threads=8 max-downloads=4"
    QString error;  // empty: made; else why the server refused it, or why it was not tried

    bool made() const { return error.isEmpty(); }
    bool operator==(const TuneEvent &) const = default;
};

// "tuned: threads=8 at 1.0 s; chunk=64K at 2.0 s · refused: backlog=9 (…)" (times from the
// point's start, made ones first); empty without events: the table's status, runs.csv's `tune`.
QString describeTuneEvents(const std::vector<TuneEvent> &events, std::int64_t startedAtMicros);

} // namespace servelab::lab
