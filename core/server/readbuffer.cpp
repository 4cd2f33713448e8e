// SPDX-License-Identifier: Apache-2.0
#include "readbuffer.h"

#include <cstring>
#include <vector>

namespace servelab::server {

namespace {

// Spare blocks of this thread. Each thread touches only its own, so no lock; a block freed
// on another thread than the one it came from (the poller moves connections) simply joins
// that thread's list. Bounded, so a burst of connections does not pin its memory for good.
constexpr std::size_t maxSpareBlocks = 256; // 1 MiB a thread

std::vector<std::unique_ptr<char[]>> &spareBlocks()
{
    thread_local std::vector<std::unique_ptr<char[]>> spare;
    return spare;
}

} // namespace

char *ReadBuffer::prepare(std::size_t n)
{
    if (m_capacity - m_end >= n)
        return m_bytes.get() + m_end;
    const std::size_t used = size();
    if (m_begin > 0 && m_capacity - used >= n) {
        std::memmove(m_bytes.get(), m_bytes.get() + m_begin, used); // slide down: no allocation
    } else {
        std::size_t capacity = m_capacity ? m_capacity : n;
        while (capacity - used < n)
            capacity *= 2;
        std::unique_ptr<char[]> bytes;
        if (capacity == blockSize && !spareBlocks().empty()) {
            bytes = std::move(spareBlocks().back());
            spareBlocks().pop_back();
        } else {
            bytes = std::make_unique_for_overwrite<char[]>(capacity);
        }
        if (used)
            std::memcpy(bytes.get(), m_bytes.get() + m_begin, used);
        m_bytes = std::move(bytes);
        m_capacity = capacity;
    }
    m_begin = 0;
    m_end = used;
    return m_bytes.get() + m_end;
}

void ReadBuffer::consume(std::size_t n)
{
    m_begin += n;
    if (m_begin >= m_end)
        m_begin = m_end = 0;
}

void ReadBuffer::clear()
{
    if (m_capacity == blockSize && spareBlocks().size() < maxSpareBlocks)
        spareBlocks().push_back(std::move(m_bytes));
    m_bytes.reset();
    m_capacity = m_begin = m_end = 0;
}

} // namespace servelab::server
