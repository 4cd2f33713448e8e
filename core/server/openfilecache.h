// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "http/documentroot.h"

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace servelab::server {

// nginx's open_file_cache. Keeps up to `entries` files open, by path, and trusts an entry for
// `validMs` before opening the path again. Either one thread's (the event loops: one per thread,
// as one per nginx worker, and no lock), or `shared` by the threads of one server (the models
// with a thread per connection or a pool: one mutex, held for a map lookup; the open itself
// happens outside it, on a miss only). It holds fds open on purpose — the fd timeline shows
// them next to the limit. Responses share an entry's fd through OpenedFile::owner, so
// eviction never closes a file that is being sent.
class OpenFileCache
{
public:
    OpenFileCache(const http::DocumentRoot &root, std::size_t entries, int validMs, bool shared);

    http::OpenedFile open(const std::string &relative, std::int64_t nowMs);
    // Tuned while the server runs: the least recently used entries beyond `entries` are closed
    // now; `validMs` applies to the entries opened from now on.
    void retune(std::size_t entries, int validMs);
    std::size_t size() const;
    std::uint64_t hits() const;
    std::uint64_t misses() const;

private:
    struct Entry
    {
        http::OpenedFile file; // owns the fd
        std::int64_t validUntilMs = 0;
        std::list<std::string>::iterator lru;
    };
    static http::OpenedFile borrow(const std::shared_ptr<Entry> &entry);

    // Held only when shared. The counters are atomics with one writer at a time (the owner, or
    // whoever holds the lock), so any thread may read them while the cache is in use.
    std::unique_lock<std::mutex> lockIfShared() const;
    static void bump(std::atomic<std::uint64_t> &counter, std::int64_t by = 1);

    mutable std::mutex m_mutex;
    const bool m_shared;
    const http::DocumentRoot &m_root;
    std::size_t m_capacity;
    int m_validMs;
    std::unordered_map<std::string, std::shared_ptr<Entry>> m_map;
    std::list<std::string> m_lru; // most recently used first
    std::atomic<std::uint64_t> m_hits{0};
    std::atomic<std::uint64_t> m_misses{0};
    std::atomic<std::uint64_t> m_entries{0}; // m_map.size()
};

} // namespace servelab::server
