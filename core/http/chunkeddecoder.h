// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace servelab::http {

// Finds the end of a chunked body (RFC 9112 §7.1), following its grammar exactly:
//   chunked-body = *chunk last-chunk trailer-section CRLF
//   chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
//   chunk-ext    = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
//   chunk-ext-val = token / quoted-string
//   trailer-section = *( field-line CRLF ),  field-line = field-name ":" OWS field-value OWS
// Anything else is Error: two parsers that disagree on where a body ends are how requests are
// smuggled, so nothing is "probably fine". The server drains request bodies with it; the load
// client reads responses with it and looks at the data.
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
        Size,          // in chunk-size
        SizeBws,       // BWS after chunk-size or an extension: only ";" may follow
        ExtNameStart,  // after ";": BWS, then the first tchar of chunk-ext-name
        ExtName,       // in chunk-ext-name
        ExtNameBws,    // BWS after the name: "=" or ";" may follow
        ExtValueStart, // after "=": BWS, then a token or a quoted-string
        ExtToken,      // in a token value
        ExtQuoted,     // in a quoted-string
        ExtQuotedPair, // after a backslash in a quoted-string
        ExtQuoteEnd,   // after the closing DQUOTE
        SizeLf,        // CR seen at the end of the size line
        Data,
        DataCr,
        DataLf,
        // The trailer states come last: feed() counts their bytes against the section's limit.
        TrailerStart, // at the start of a trailer line, or of the final CRLF
        TrailerName,
        TrailerValue,
        TrailerLf,
        EndLf, // CR of the final CRLF seen
    };

    Status step(char c);

    State m_state = State::Size;
    std::uint64_t m_chunk = 0;
    std::uint64_t m_body = 0;
    std::uint64_t m_maxBody;
    int m_sizeDigits = 0;        // hex digits after any leading zeros
    bool m_sawSizeDigit = false; // chunk-size = 1*HEXDIG
    std::size_t m_lineLength = 0;
    std::size_t m_trailerBytes = 0;
    bool m_tooLarge = false;
};

} // namespace servelab::http
