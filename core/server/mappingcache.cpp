// SPDX-License-Identifier: Apache-2.0
#include "mappingcache.h"

#include "http/documentroot.h"

#include <algorithm>

namespace servelab::server {

MappingCache::MappingCache(std::size_t entries, std::uint64_t bytes)
    : m_capacity(entries), m_byteBudget(bytes)
{
    m_entries.reserve(m_capacity);
}

std::shared_ptr<const FileMapping> MappingCache::map(const http::OpenedFile &file)
{
    ++m_clock;
    const auto same = [&](const Entry &e) {
        return e.inode == file.inode && e.device == file.device;
    };
    const auto it = std::find_if(m_entries.begin(), m_entries.end(), same);
    if (it != m_entries.end() && it->size == file.size && it->changedNs == file.changedNs) {
        ++m_hits;
        it->lastUsed = m_clock;
        return it->mapping;
    }
    ++m_misses;
    if (it != m_entries.end()) { // another version of the file: this one replaces it
        m_bytes -= it->size;
        *it = std::move(m_entries.back());
        m_entries.pop_back();
    }
    auto mapping = std::make_shared<FileMapping>();
    if (!mapping->map(file.fd, static_cast<std::size_t>(file.size)))
        return nullptr;
    if (m_capacity == 0 || file.size > m_byteBudget)
        return mapping; // this response's alone
    evictFor(file.size);
    m_entries.push_back({file.device, file.inode, file.size, file.changedNs, m_clock, mapping});
    m_bytes += file.size;
    return mapping;
}

// Least recently served first, until one more entry of `bytes` fits.
void MappingCache::evictFor(std::uint64_t bytes)
{
    while (!m_entries.empty() &&
           (m_entries.size() >= m_capacity || m_bytes + bytes > m_byteBudget)) {
        const auto oldest = std::min_element(
            m_entries.begin(), m_entries.end(),
            [](const Entry &a, const Entry &b) { return a.lastUsed < b.lastUsed; });
        m_bytes -= oldest->size;
        *oldest = std::move(m_entries.back());
        m_entries.pop_back();
    }
}

} // namespace servelab::server
