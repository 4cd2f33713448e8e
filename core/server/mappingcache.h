// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filemapping.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace servelab::http {
struct OpenedFile;
}

namespace servelab::server {

// The mmap transfers' mappings, kept from one response to the next: a file served again is not
// mapped, faulted in page by page and unmapped again for every response (which made epoll+mmap
// a fifth of epoll+copy at 4 KiB; munmap() also has to shoot down the TLB of every core the
// process's other threads ran on). One per server thread, like its transfer: no lock. An entry
// is one version of one file — device, inode, size and ctime — so a file that was written,
// truncated or replaced is mapped anew, with or without the open-file cache. A response holds
// its mapping (shared), so an eviction never unmaps bytes still being sent. Bounded by entries
// and by mapped bytes (address space and page tables, not memory: the pages are the page
// cache's). entries 0: map per response, the naive strategy.
class MappingCache
{
public:
    static constexpr std::size_t defaultEntries = 64;
    static constexpr std::uint64_t defaultBytes = std::uint64_t(1) << 30;

    explicit MappingCache(std::size_t entries = defaultEntries,
                          std::uint64_t bytes = defaultBytes);

    // The whole of `file` mapped: kept, or made now. Null, errno set, if mmap() failed.
    std::shared_ptr<const FileMapping> map(const http::OpenedFile &file);
    std::size_t size() const { return m_entries.size(); }
    std::uint64_t hits() const { return m_hits; }
    std::uint64_t misses() const { return m_misses; }

private:
    struct Entry
    {
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        std::uint64_t size = 0;
        std::int64_t changedNs = 0;
        std::uint64_t lastUsed = 0; // m_clock when it was last served
        std::shared_ptr<const FileMapping> mapping;
    };
    void evictFor(std::uint64_t bytes);

    std::size_t m_capacity;
    std::uint64_t m_byteBudget;
    std::uint64_t m_bytes = 0;
    std::uint64_t m_clock = 0;
    std::uint64_t m_hits = 0;
    std::uint64_t m_misses = 0;
    std::vector<Entry> m_entries; // few: a linear scan is cheaper than hashing
};

} // namespace servelab::server
