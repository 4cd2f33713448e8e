#include "readbuffer.h"

#include <cstring>

namespace servelab::server {

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
        auto bytes = std::make_unique_for_overwrite<char[]>(capacity);
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
    m_bytes.reset();
    m_capacity = m_begin = m_end = 0;
}

} // namespace servelab::server
