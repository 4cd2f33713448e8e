// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "foldedstacks.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <functional>

namespace servelab::profile {

// Reads `perf script` (fields comm,tid,time,period,event,trace,ip,sym,dso, with
// --show-switch-events) line by line into two profiles: on-CPU from cpu-clock samples (each
// weighs its period) and off-CPU from sched:sched_switch samples taken as a thread blocked
// (each weighs the time until that thread's next PERF_RECORD_SWITCH IN). Written against the
// text perf 6.1 prints; a line it does not know is counted, not guessed at.
class PerfScriptReader
{
public:
    // Which threads count, by the name perf printed (their comm); all when unset.
    void setThreadFilter(std::function<bool(QStringView comm)> keep) { m_keep = std::move(keep); }
    void addLine(QStringView line);
    // Ends the sample being read; a block still open at the end has no length and is dropped.
    void finish();

    const FoldedStacks &onCpu() const { return m_onCpu; }
    const FoldedStacks &offCpu() const { return m_offCpu; }
    int samples() const { return m_samples; }
    int unreadLines() const { return m_unread; }

private:
    enum class Event
    {
        None,
        Cpu,
        Block
    };
    void endSample();

    std::function<bool(QStringView)> m_keep;
    FoldedStacks m_onCpu;
    FoldedStacks m_offCpu;
    // The sample being read: its stack leaf first, as perf prints it.
    Event m_event = Event::None;
    qint64 m_tid = 0;
    double m_time = 0;
    double m_period = 0;
    QStringList m_frames;
    // Blocks waiting for their thread to come back: tid → (when, stack root first).
    QHash<qint64, std::pair<double, QStringList>> m_blocked;
    int m_samples = 0;
    int m_unread = 0;
};

} // namespace servelab::profile
