// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acceptguard.h"
#include "connection.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
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
        // Taken out of the watcher's epoll set (its deadline passed): arm() adds it back. Written
        // only by the thread holding the entry.
        bool detached = false;
    };

    // A thread that may hold entries, counted from its construction — on the thread that starts
    // the server, before any of them runs — until release() at the end of its loop; the last to
    // release closes every connection left. Counting from run() instead let the watcher, stopped
    // before a slow pool thread had begun, free entries that thread then took from the queue
    // (AddressSanitizer, CI of 5c89004).
    class Holder
    {
    public:
        explicit Holder(ConnectionRegistry &registry) : m_registry(&registry)
        {
            registry.m_running.fetch_add(1);
        }
        Holder(const Holder &) = delete;
        Holder &operator=(const Holder &) = delete;
        ~Holder() { release(); }
        void release()
        {
            if (auto *registry = std::exchange(m_registry, nullptr))
                registry->leave();
        }

    private:
        ConnectionRegistry *m_registry;
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

private:
    void leave();

    ConnectionLimit &m_limit;
    std::mutex m_mutex;
    std::unordered_map<Entry *, std::unique_ptr<Entry>> m_entries;
    std::atomic<int> m_running{0};
};

} // namespace servelab::server
