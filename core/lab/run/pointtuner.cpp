// SPDX-License-Identifier: Apache-2.0
#include "pointtuner.h"

#include "lab/targets/target.h"
#include "metrics/clock.h"

#include <chrono>

namespace servelab::lab {

PointTuner::PointTuner(Target &target, const QList<TuneStep> &steps, std::int64_t startedAtMicros,
                       Listener listener)
    : m_target(target), m_steps(steps), m_startedAtMicros(startedAtMicros),
      m_listener(std::move(listener))
{
    if (m_steps.isEmpty())
        return;
    m_before = m_target.liveOptions();
    m_thread = std::thread([this] { run(); });
}

PointTuner::~PointTuner()
{
    finish();
}

void PointTuner::run()
{
    for (const TuneStep &step : m_steps) {
        const auto due = std::chrono::steady_clock::time_point(
            std::chrono::microseconds(m_startedAtMicros + std::int64_t(step.atMs) * 1000));
        {
            std::unique_lock lock(m_mutex);
            // metrics::monotonicMicros is CLOCK_MONOTONIC, as steady_clock is on Linux.
            if (m_wake.wait_until(lock, due, [this] { return m_finishing; }))
                return;
        }
        TuneEvent event;
        event.change = step.assignments.join(u' ');
        QString error;
        event.atMicros = metrics::monotonicMicros(); // the server takes it before it answers
        if (!m_target.tune(step.assignments, &error))
            event.error = error;
        if (m_listener)
            m_listener(event);
        std::lock_guard lock(m_mutex);
        if (event.made())
            for (const QString &assignment : step.assignments)
                m_changed << assignment.section(u'=', 0, 0);
        m_events.push_back(event);
    }
}

std::vector<TuneEvent> PointTuner::finish()
{
    {
        std::lock_guard lock(m_mutex);
        m_finishing = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    const std::int64_t endedMs = (metrics::monotonicMicros() - m_startedAtMicros) / 1000;
    for (qsizetype i = qsizetype(m_events.size()); i < m_steps.size(); ++i) {
        TuneEvent skipped;
        skipped.atMicros = m_startedAtMicros + std::int64_t(m_steps[i].atMs) * 1000;
        skipped.change = m_steps[i].assignments.join(u' ');
        skipped.error = QStringLiteral("not made: the point ended after %1 ms, before %2 ms")
                            .arg(endedMs)
                            .arg(m_steps[i].atMs);
        m_events.push_back(skipped);
    }
    return m_events;
}

QString PointTuner::restore()
{
    QStringList back;
    for (const QString &option : m_before)
        if (m_changed.contains(option.section(u'=', 0, 0)))
            back << option;
    m_changed.clear();
    QString error;
    if (!back.isEmpty() && !m_target.tune(back, &error))
        return QStringLiteral("the options tuned in this point could not be put back (%1): the "
                              "next points start tuned")
            .arg(error);
    return {};
}

} // namespace servelab::lab
