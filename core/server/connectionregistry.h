// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acceptguard.h"
#include "connection.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace servelab::server {

// The connections of a model whose threads pass them around (poller, multiplex): one owner for
// all of them, so that whichever thread finishes with a connection can drop it, and the last
// thread to stop closes what is left.
class ConnectionRegistry
{
public:
    struct Entry
    {
        std::unique_ptr<Connection> connection;
        // Held by a thread other than the one watching the sockets (queued, in a worker, a
        // download): the watcher and its deadline scan keep off.
        std::atomic<bool> busy{false};
    };

    explicit ConnectionRegistry(ConnectionLimit &limit) : m_limit(limit) {}
    ConnectionRegistry(const ConnectionRegistry &) = delete;
    ConnectionRegistry &operator=(const ConnectionRegistry &) = delete;

    Entry *add(std::unique_ptr<Connection> connection);
    // Forgets the entry: its Connection closes the socket; the limit gets the slot back.
    void remove(Entry *entry);
    // A busy entry handed back to the watcher: `rearm(entry)` (epoll_ctl) with the entry not
    // busy, under the registry's lock, so that the deadline scan cannot take it and another
    // thread cannot remove it between the two (found by ThreadSanitizer: the entry could be
    // closed and freed by a worker while this thread still re-armed it).
    template<typename Rearm>
    void handBack(Entry *entry, Rearm rearm)
    {
        std::lock_guard lock(m_mutex);
        entry->busy.store(false);
        rearm(entry);
    }
    // Entries not busy whose deadline is at or before `nowMs`.
    std::vector<Entry *> due(std::int64_t nowMs);

    // Every thread that may hold entries enters before its loop and leaves after it; the last
    // to leave closes every connection left.
    void enter() { m_running.fetch_add(1); }
    void leave();

private:
    ConnectionLimit &m_limit;
    std::mutex m_mutex;
    std::unordered_map<Entry *, std::unique_ptr<Entry>> m_entries;
    std::atomic<int> m_running{0};
};

} // namespace servelab::server
