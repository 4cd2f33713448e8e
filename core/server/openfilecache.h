#pragma once

#include "http/documentroot.h"

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

namespace servelab::server {

// nginx's open_file_cache for one server thread: keeps up to `entries` files open, by path, and
// trusts an entry for `validMs` before opening the path again. It holds fds open on purpose —
// the fd timeline shows them next to the limit. Responses share an entry's fd through
// OpenedFile::owner, so eviction never closes a file that is being sent.
class OpenFileCache
{
public:
    OpenFileCache(const http::DocumentRoot &root, std::size_t entries, int validMs);

    http::OpenedFile open(const std::string &relative, std::int64_t nowMs);
    std::size_t size() const { return m_map.size(); }
    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }

private:
    struct Entry
    {
        http::OpenedFile file; // owns the fd
        std::int64_t validUntilMs = 0;
        std::list<std::string>::iterator lru;
    };
    static http::OpenedFile borrow(const std::shared_ptr<Entry> &entry);

    const http::DocumentRoot &m_root;
    std::size_t m_capacity;
    int m_validMs;
    std::unordered_map<std::string, std::shared_ptr<Entry>> m_map;
    std::list<std::string> m_lru; // most recently used first
    std::uint64_t m_hits = 0;
    std::uint64_t m_misses = 0;
};

} // namespace servelab::server
