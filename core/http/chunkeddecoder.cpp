// SPDX-License-Identifier: Apache-2.0
#include "chunkeddecoder.h"

#include "textutil.h"

#include <algorithm>

namespace servelab::http {

namespace {
constexpr std::size_t maxLine = 8192; // a size line or a trailer line, as field lines
constexpr std::size_t maxTrailerBytes = 64 << 10; // the whole trailer section, as a head
constexpr int maxSizeDigits = 15;                // 15 hex digits stay below 2^60: no overflow

bool isWhitespace(unsigned char c)
{
    return c == ' ' || c == '\t';
}

// qdtext (RFC 9110 §5.6.4): HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
bool isQuotedText(unsigned char c)
{
    return c == '\t' || c == ' ' || c == 0x21 || (c >= 0x23 && c <= 0x5b) ||
           (c >= 0x5d && c <= 0x7e) || c >= 0x80;
}

// What may follow a backslash in a quoted-string: HTAB / SP / VCHAR / obs-text
bool isQuotedPairChar(unsigned char c)
{
    return c == '\t' || c == ' ' || (c >= 0x21 && c <= 0x7e) || c >= 0x80;
}

// field-value characters (RFC 9110 §5.5): VCHAR / obs-text, and SP / HTAB inside
bool isFieldValueChar(unsigned char c)
{
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

} // namespace

// One byte of the framing (anything but chunk data). Returns NeedMore to go on.
ChunkedDecoder::Status ChunkedDecoder::step(char ch)
{
    const auto c = static_cast<unsigned char>(ch);
    // A size or trailer line's bytes before its CRLF (CR and LF appear nowhere else in them).
    if (c != '\r' && c != '\n' && ++m_lineLength > maxLine)
        return Status::Error;
    switch (m_state) {
    case State::Size:
        if (const int d = hexValue(ch); d >= 0) {
            m_sawSizeDigit = true;
            if ((m_sizeDigits > 0 || d > 0) && ++m_sizeDigits > maxSizeDigits)
                return Status::Error;
            m_chunk = m_chunk * 16 + static_cast<unsigned>(d);
            return Status::NeedMore;
        }
        if (!m_sawSizeDigit)
            return Status::Error;
        [[fallthrough]];
    case State::ExtToken:
    case State::ExtQuoteEnd:
        // The end of a size or of an extension: BWS ";", a next extension, or the CRLF.
        if (isWhitespace(c))
            m_state = State::SizeBws;
        else if (c == ';')
            m_state = State::ExtNameStart;
        else if (c == '\r')
            m_state = State::SizeLf;
        else if (m_state == State::ExtToken && isTokenChar(c))
            return Status::NeedMore;
        else
            return Status::Error;
        return Status::NeedMore;
    case State::SizeBws:
        if (c == ';')
            m_state = State::ExtNameStart;
        else if (!isWhitespace(c))
            return Status::Error;
        return Status::NeedMore;
    case State::ExtNameStart:
        if (isTokenChar(c))
            m_state = State::ExtName;
        else if (!isWhitespace(c))
            return Status::Error;
        return Status::NeedMore;
    case State::ExtName:
        if (isTokenChar(c))
            return Status::NeedMore;
        if (c == '=')
            m_state = State::ExtValueStart;
        else if (c == ';')
            m_state = State::ExtNameStart;
        else if (c == '\r')
            m_state = State::SizeLf;
        else if (isWhitespace(c))
            m_state = State::ExtNameBws;
        else
            return Status::Error;
        return Status::NeedMore;
    case State::ExtNameBws:
        if (c == '=')
            m_state = State::ExtValueStart;
        else if (c == ';')
            m_state = State::ExtNameStart;
        else if (!isWhitespace(c))
            return Status::Error;
        return Status::NeedMore;
    case State::ExtValueStart:
        if (c == '"')
            m_state = State::ExtQuoted;
        else if (isTokenChar(c))
            m_state = State::ExtToken;
        else if (!isWhitespace(c))
            return Status::Error;
        return Status::NeedMore;
    case State::ExtQuoted:
        if (c == '"')
            m_state = State::ExtQuoteEnd;
        else if (c == '\\')
            m_state = State::ExtQuotedPair;
        else if (!isQuotedText(c))
            return Status::Error;
        return Status::NeedMore;
    case State::ExtQuotedPair:
        if (!isQuotedPairChar(c))
            return Status::Error;
        m_state = State::ExtQuoted;
        return Status::NeedMore;
    case State::SizeLf:
        if (c != '\n')
            return Status::Error;
        m_body += m_chunk;
        if (m_body > m_maxBody) {
            m_tooLarge = true;
            return Status::Error;
        }
        m_lineLength = 0;
        m_state = m_chunk == 0 ? State::TrailerStart : State::Data;
        return Status::NeedMore;
    case State::Data: return Status::Error; // not reached: feed() takes data in runs
    case State::DataCr:
        if (c != '\r')
            return Status::Error;
        m_state = State::DataLf;
        return Status::NeedMore;
    case State::DataLf:
        if (c != '\n')
            return Status::Error;
        m_state = State::Size;
        m_sizeDigits = 0;
        m_sawSizeDigit = false;
        m_lineLength = 0;
        return Status::NeedMore;
    case State::TrailerStart:
        // A trailer line starts with a field-name: SP/HTAB here is obs-fold (RFC 9112 §5.2).
        if (c == '\r')
            m_state = State::EndLf;
        else if (isTokenChar(c))
            m_state = State::TrailerName;
        else
            return Status::Error;
        return Status::NeedMore;
    case State::TrailerName:
        if (c == ':')
            m_state = State::TrailerValue;
        else if (!isTokenChar(c)) // also whitespace before the colon (RFC 9112 §5.1)
            return Status::Error;
        return Status::NeedMore;
    case State::TrailerValue:
        if (c == '\r')
            m_state = State::TrailerLf;
        else if (!isFieldValueChar(c))
            return Status::Error;
        return Status::NeedMore;
    case State::TrailerLf:
        if (c != '\n')
            return Status::Error;
        m_lineLength = 0;
        m_state = State::TrailerStart;
        return Status::NeedMore;
    case State::EndLf: return c == '\n' ? Status::Done : Status::Error;
    }
    return Status::Error;
}

ChunkedDecoder::Status ChunkedDecoder::feed(std::string_view in, std::size_t *used,
                                            std::string_view *data)
{
    std::size_t i = 0;
    if (data)
        *data = {};
    while (i < in.size()) {
        if (m_state == State::Data) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(m_chunk, in.size() - i));
            const std::size_t from = i;
            i += n;
            m_chunk -= n;
            if (m_chunk == 0)
                m_state = State::DataCr;
            if (data) {
                *data = in.substr(from, n);
                *used = i;
                return Status::NeedMore;
            }
            continue;
        }
        if (m_state >= State::TrailerStart && ++m_trailerBytes > maxTrailerBytes) {
            *used = i;
            return Status::Error;
        }
        const Status status = step(in[i++]);
        if (status != Status::NeedMore) {
            *used = i;
            return status;
        }
    }
    *used = i;
    return Status::NeedMore;
}

} // namespace servelab::http
