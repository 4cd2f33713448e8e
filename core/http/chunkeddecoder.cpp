#include "chunkeddecoder.h"

#include "textutil.h"

#include <algorithm>

namespace servelab::http {

namespace {
constexpr std::size_t maxLine = 8192; // chunk extensions and trailer lines, as field lines
constexpr int maxSizeDigits = 15;     // 15 hex digits stay below 2^60: no overflow

} // namespace

ChunkedDecoder::Status ChunkedDecoder::feed(std::string_view in, std::size_t *used,
                                            std::string_view *data)
{
    std::size_t i = 0;
    if (data)
        *data = {};
    auto finish = [&](Status status) {
        *used = i;
        return status;
    };
    while (i < in.size()) {
        const char c = in[i];
        switch (m_state) {
        case State::Size:
            if (const int d = hexValue(c); d >= 0) {
                if (++m_sizeDigits > maxSizeDigits)
                    return finish(Status::Error);
                m_chunk = m_chunk * 16 + static_cast<unsigned>(d);
            } else if (m_sizeDigits > 0 && (c == ';' || c == ' ' || c == '\t')) {
                m_state = State::Extension;
                m_lineLength = 0;
            } else if (m_sizeDigits > 0 && c == '\r') {
                m_state = State::SizeLf;
            } else {
                return finish(Status::Error);
            }
            ++i;
            break;
        case State::Extension:
            if (c == '\r')
                m_state = State::SizeLf;
            else if (c == '\n' || c == '\0' || ++m_lineLength > maxLine)
                return finish(Status::Error);
            ++i;
            break;
        case State::SizeLf:
            if (c != '\n')
                return finish(Status::Error);
            ++i;
            m_body += m_chunk;
            if (m_body > m_maxBody) {
                m_tooLarge = true;
                return finish(Status::Error);
            }
            m_lineLength = 0;
            m_state = m_chunk == 0 ? State::Trailer : State::Data;
            break;
        case State::Data: {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(m_chunk, in.size() - i));
            const std::size_t from = i;
            i += n;
            m_chunk -= n;
            if (m_chunk == 0)
                m_state = State::DataCr;
            if (data) {
                *data = in.substr(from, n);
                return finish(Status::NeedMore);
            }
            break;
        }
        case State::DataCr:
            if (c != '\r')
                return finish(Status::Error);
            m_state = State::DataLf;
            ++i;
            break;
        case State::DataLf:
            if (c != '\n')
                return finish(Status::Error);
            m_state = State::Size;
            m_sizeDigits = 0;
            ++i;
            break;
        case State::Trailer:
            if (c == '\r')
                m_state = State::TrailerLf;
            else if (c == '\n' || c == '\0' || ++m_lineLength > maxLine)
                return finish(Status::Error);
            ++i;
            break;
        case State::TrailerLf:
            if (c != '\n')
                return finish(Status::Error);
            ++i;
            if (m_lineLength == 0)
                return finish(Status::Done);
            m_lineLength = 0;
            m_state = State::Trailer;
            break;
        }
    }
    return finish(Status::NeedMore);
}

} // namespace servelab::http
