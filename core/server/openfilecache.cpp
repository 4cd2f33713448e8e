// SPDX-License-Identifier: Apache-2.0
#include "openfilecache.h"

namespace servelab::server {

OpenFileCache::OpenFileCache(const http::DocumentRoot &root, std::size_t entries, int validMs,
                             bool shared)
    : m_shared(shared), m_root(root), m_capacity(std::max<std::size_t>(entries, 1)),
      m_validMs(validMs)
{}

std::unique_lock<std::mutex> OpenFileCache::lockIfShared() const
{
    return m_shared ? std::unique_lock(m_mutex) : std::unique_lock<std::mutex>();
}

http::OpenedFile OpenFileCache::borrow(const std::shared_ptr<Entry> &entry)
{
    http::OpenedFile out;
    out.status = entry->file.status;
    out.fd = entry->file.fd;
    out.size = entry->file.size;
    out.modified = entry->file.modified;
    out.device = entry->file.device;
    out.inode = entry->file.inode;
    out.changedNs = entry->file.changedNs;
    out.contentType = entry->file.contentType;
    out.owner = entry;
    return out;
}

// A load and a store, not a locked read-modify-write: there is one writer at a time.
void OpenFileCache::bump(std::atomic<std::uint64_t> &counter, std::int64_t by)
{
    counter.store(counter.load(std::memory_order_relaxed) + std::uint64_t(by),
                  std::memory_order_relaxed);
}

std::size_t OpenFileCache::size() const
{
    return m_entries.load(std::memory_order_relaxed);
}

std::uint64_t OpenFileCache::hits() const
{
    return m_hits.load(std::memory_order_relaxed);
}

std::uint64_t OpenFileCache::misses() const
{
    return m_misses.load(std::memory_order_relaxed);
}

void OpenFileCache::retune(std::size_t entries, int validMs)
{
    const auto lock = lockIfShared();
    m_capacity = std::max<std::size_t>(entries, 1);
    m_validMs = validMs;
    while (m_map.size() > m_capacity) {
        m_map.erase(m_lru.back()); // a response still sending it keeps the fd (OpenedFile::owner)
        m_lru.pop_back();
        bump(m_entries, -1);
    }
}

http::OpenedFile OpenFileCache::open(const std::string &relative, std::int64_t nowMs)
{
    {
        const auto lock = lockIfShared();
        auto it = m_map.find(relative);
        if (it != m_map.end() && nowMs < it->second->validUntilMs) {
            bump(m_hits);
            m_lru.splice(m_lru.begin(), m_lru, it->second->lru);
            return borrow(it->second);
        }
        bump(m_misses);
    }
    http::OpenedFile file = m_root.openFile(relative);
    const auto lock = lockIfShared();
    auto it = m_map.find(relative);
    if (file.status != 200) {
        // Errors are not cached: a file that appears is served at once.
        if (it != m_map.end()) {
            m_lru.erase(it->second->lru);
            m_map.erase(it);
            bump(m_entries, -1);
        }
        return file;
    }
    auto entry = std::make_shared<Entry>();
    entry->file = std::move(file);
    entry->validUntilMs = nowMs + m_validMs;
    if (it != m_map.end()) {
        // Revalidated: the old entry's fd stays open as long as a response still uses it.
        entry->lru = it->second->lru;
        m_lru.splice(m_lru.begin(), m_lru, entry->lru);
        it->second = entry;
    } else {
        if (m_map.size() >= m_capacity) {
            m_map.erase(m_lru.back());
            m_lru.pop_back();
            bump(m_entries, -1);
        }
        m_lru.push_front(relative);
        entry->lru = m_lru.begin();
        m_map.emplace(relative, entry);
        bump(m_entries);
    }
    return borrow(entry);
}

} // namespace servelab::server
