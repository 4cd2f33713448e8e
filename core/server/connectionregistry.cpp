// SPDX-License-Identifier: Apache-2.0
#include "connectionregistry.h"

namespace servelab::server {

ConnectionRegistry::Entry *ConnectionRegistry::add(std::unique_ptr<Connection> connection)
{
    auto entry = std::make_unique<Entry>();
    entry->connection = std::move(connection);
    Entry *raw = entry.get();
    std::lock_guard lock(m_mutex);
    m_entries.emplace(raw, std::move(entry));
    return raw;
}

void ConnectionRegistry::remove(Entry *entry)
{
    std::lock_guard lock(m_mutex);
    m_entries.erase(entry);
    m_limit.release();
}

std::vector<ConnectionRegistry::Entry *> ConnectionRegistry::due(std::int64_t nowMs)
{
    std::vector<Entry *> due;
    std::lock_guard lock(m_mutex);
    for (const auto &[entry, owned] : m_entries)
        if (!entry->busy.load() && entry->connection->deadlineMs() <= nowMs)
            due.push_back(entry);
    return due;
}

void ConnectionRegistry::leave()
{
    if (m_running.fetch_sub(1) != 1)
        return;
    std::lock_guard lock(m_mutex);
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        m_limit.release();
    m_entries.clear();
}

} // namespace servelab::server
