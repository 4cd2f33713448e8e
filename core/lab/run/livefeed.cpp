// SPDX-License-Identifier: Apache-2.0
#include "livefeed.h"

namespace servelab::lab {

void LiveFeed::beginPoint(const QString &target, quint64 sizeBytes, int repetition,
                          std::int64_t startedAtMicros)
{
    std::lock_guard lock(m_mutex);
    Update next;
    next.serial = m_pending.serial + 1;
    next.target = target;
    next.sizeBytes = sizeBytes;
    next.repetition = repetition;
    next.startedAtMicros = startedAtMicros;
    m_pending = std::move(next);
    m_open = true;
}

void LiveFeed::endPoint()
{
    std::lock_guard lock(m_mutex);
    m_open = false;
}

void LiveFeed::publishClient(const client::ClientSample &sample)
{
    std::lock_guard lock(m_mutex);
    if (m_open)
        m_pending.client.push_back(
            {sample.endMicros, sample.intervalMicros, sample.completed, sample.bytesRead});
}

void LiveFeed::publishServer(const metrics::ProcessSample &sample)
{
    std::lock_guard lock(m_mutex);
    if (m_open)
        m_pending.server.push_back(sample);
}

void LiveFeed::publishTune(const TuneEvent &event)
{
    std::lock_guard lock(m_mutex);
    if (m_open)
        m_pending.tune.push_back(event);
}

LiveFeed::Update LiveFeed::take()
{
    std::lock_guard lock(m_mutex);
    Update out = m_pending;
    m_pending.client.clear();
    m_pending.server.clear();
    m_pending.tune.clear();
    return out;
}

} // namespace servelab::lab
