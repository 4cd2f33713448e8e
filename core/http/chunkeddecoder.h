#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace servelab::http {

// Finds the end of a chunked body (RFC 9112 §7.1): sizes, extensions, data, the last chunk and
// any trailer section. The server drains request bodies with it; the load client reads
// responses with it and looks at the data.
class ChunkedDecoder
{
public:
    enum class Status
    {
        NeedMore,
        Done,
        Error
    };

    explicit ChunkedDecoder(std::uint64_t maxBody = 1 << 20) : m_maxBody(maxBody) {}

    // Consumes bytes from `in`; *used tells how many. Done: the body ended within them.
    // With `data`, it also stops after each run of chunk data and points *data at it (empty
    // when a call ends otherwise); NeedMore with bytes left over then means: call again.
    Status feed(std::string_view in, std::size_t *used, std::string_view *data = nullptr);
    std::uint64_t bodyBytes() const { return m_body; }
    bool tooLarge() const { return m_tooLarge; }

private:
    enum class State
    {
        Size,
        Extension,
        SizeLf,
        Data,
        DataCr,
        DataLf,
        Trailer,
        TrailerLf
    };

    State m_state = State::Size;
    std::uint64_t m_chunk = 0;
    std::uint64_t m_body = 0;
    std::uint64_t m_maxBody;
    int m_sizeDigits = 0;
    std::size_t m_lineLength = 0;
    bool m_tooLarge = false;
};

} // namespace servelab::http
