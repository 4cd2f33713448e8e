// SPDX-License-Identifier: Apache-2.0
#include "perfscriptreader.h"

#include <algorithm>

namespace servelab::profile {

namespace {

// "\t    85f16 __futex_abstimed_wait_common (/usr/lib/x86_64-linux-gnu/libc.so.6)": the frame's
// name, "[unknown] libc.so.6" when perf had no symbol, and " [k]" after a kernel frame.
QString frameName(QStringView line)
{
    line = line.trimmed();
    const qsizetype space = line.indexOf(u' ');
    if (space < 0)
        return {};
    QStringView rest = line.mid(space + 1);
    QStringView dso;
    if (rest.endsWith(u')')) {
        const qsizetype open = rest.lastIndexOf(QStringLiteral(" ("));
        if (open >= 0) {
            dso = rest.mid(open + 2, rest.size() - open - 3);
            rest = rest.left(open);
        }
    }
    if (dso.startsWith(QStringLiteral("[kernel")))
        return rest.toString() + QStringLiteral(" [k]");
    if (rest == QStringLiteral("[unknown]") && !dso.isEmpty())
        return rest.toString() + u' ' + dso.mid(dso.lastIndexOf(u'/') + 1).toString();
    return rest.toString();
}

} // namespace

void PerfScriptReader::addLine(QStringView line)
{
    if (line.startsWith(u'\t')) {
        if (m_event != Event::None)
            if (QString frame = frameName(line); !frame.isEmpty())
                m_frames << frame;
        return;
    }
    if (line.trimmed().isEmpty()) {
        endSample();
        return;
    }
    endSample();
    // "servelab-server  8821 76092.420912:          1 sched:sched_switch: prev_comm=…"
    const qsizetype colon = line.indexOf(QStringLiteral(": "));
    if (colon < 0) {
        ++m_unread;
        return;
    }
    const QList<QStringView> head = line.left(colon).split(u' ', Qt::SkipEmptyParts);
    if (head.size() < 3) {
        ++m_unread;
        return;
    }
    bool tidOk = false;
    bool timeOk = false;
    const qint64 tid = head[head.size() - 2].toLongLong(&tidOk);
    const double time = head.last().toDouble(&timeOk);
    if (!tidOk || !timeOk) {
        ++m_unread;
        return;
    }
    const QStringView comm = line.left(head[head.size() - 2].data() - line.data()).trimmed();
    const QStringView rest = line.mid(colon + 2).trimmed();
    if (rest.startsWith(QStringLiteral("PERF_RECORD_SWITCH"))) {
        if (rest.mid(18).trimmed().startsWith(QStringLiteral("IN"))) {
            if (const auto it = m_blocked.constFind(tid); it != m_blocked.cend()) {
                m_offCpu.add(it->second, std::max(0.0, (time - it->first) * 1e6));
                m_blocked.erase(it);
            }
        }
        return;
    }
    if (m_keep && !m_keep(comm))
        return;
    // "2004008          cpu-clock: " or "1 sched:sched_switch: …": the period, then the event.
    const qsizetype space = rest.indexOf(u' ');
    bool periodOk = false;
    const double period = space > 0 ? rest.left(space).toDouble(&periodOk) : 0;
    const QStringView event = space > 0 ? rest.mid(space).trimmed() : rest;
    if (event.startsWith(QStringLiteral("cpu-clock")) && periodOk) {
        m_event = Event::Cpu;
        m_period = period / 1000.0; // ns → µs
    } else if (event.startsWith(QStringLiteral("sched:sched_switch"))) {
        m_event = Event::Block;
        m_period = 0;
    } else {
        ++m_unread;
        return;
    }
    m_tid = tid;
    m_time = time;
    m_frames.clear();
}

void PerfScriptReader::endSample()
{
    if (m_event == Event::None)
        return;
    std::reverse(m_frames.begin(), m_frames.end()); // root first
    if (m_frames.isEmpty())
        m_frames << QStringLiteral("[no stack]");
    ++m_samples;
    if (m_event == Event::Cpu)
        m_onCpu.add(m_frames, m_period);
    else
        m_blocked.insert(m_tid, {m_time, m_frames});
    m_event = Event::None;
    m_frames.clear();
}

void PerfScriptReader::finish()
{
    endSample();
    m_blocked.clear();
}

} // namespace servelab::profile
