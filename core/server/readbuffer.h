#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace servelab::server {

// A connection's input: bytes received and not yet consumed. Unlike std::string it does not
// zero the space it grows into before recv() overwrites it (that memset showed in profiles),
// and it frees its memory when empty so an idle keep-alive connection costs no buffer.
class ReadBuffer
{
public:
    // Room for at least `n` more bytes after the data; returns where to write them.
    char *prepare(std::size_t n);
    void commit(std::size_t n) { m_end += n; }
    void consume(std::size_t n);
    void clear();

    std::string_view data() const { return {m_bytes.get() + m_begin, m_end - m_begin}; }
    std::size_t size() const { return m_end - m_begin; }
    bool empty() const { return m_begin == m_end; }

private:
    std::unique_ptr<char[]> m_bytes;
    std::size_t m_capacity = 0;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
};

} // namespace servelab::server
