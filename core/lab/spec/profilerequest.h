// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonValue>
#include <QList>
#include <QString>

namespace servelab::lab {

// The spec's "profile": which points get a perf profile of the server. `true` profiles every
// size; {"sizes": ["12", "1M"], "frequency": 499, "off_cpu": true} some. A profiled point is
// measured as usual, then its load runs once more with perf attached (the last repetition
// only): its numbers stay unprofiled, and the pass says what profiling cost.
struct ProfileRequest
{
    bool enabled = false;
    QList<quint64> sizes; // empty: every size
    int frequency = 499;  // cpu-clock samples a second
    bool offCpu = true;   // and where threads blocked (sched_switch): off-CPU and lock waits

    bool wants(quint64 size) const { return enabled && (sizes.isEmpty() || sizes.contains(size)); }
    // False with *why naming the field and what it wants.
    static bool parse(const QJsonValue &value, ProfileRequest *out, QString *why);
    // The command line's --profile: "all" or a size list ("12,1M").
    static bool parseList(const QString &text, ProfileRequest *out, QString *why);
    QJsonValue toJson() const;
};

} // namespace servelab::lab
