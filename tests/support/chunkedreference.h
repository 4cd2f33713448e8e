// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

// A second, deliberately different reading of RFC 9112 §7.1's chunked-body grammar, for
// differential tests of http::ChunkedDecoder: recursive descent over the whole input at once,
// rule by rule as the RFC writes them (the decoder is a byte-at-a-time state machine). Both
// apply the same limits: 15 significant hex digits, 8,192 bytes per size or trailer line before
// its CRLF, 64 KiB of trailer section, and the caller's body limit.
namespace chunkedreference {

enum class Verdict
{
    NeedMore, // a prefix of some valid body: the input ran out before an error
    Done,
    Error
};

struct Result
{
    Verdict verdict = Verdict::Error;
    std::size_t used = 0;        // Done: bytes up to and including the final CRLF
    std::uint64_t bodyBytes = 0; // Done: the sum of the chunk sizes
    bool tooLarge = false;
};

class Reference
{
public:
    explicit Reference(std::string_view in, std::uint64_t maxBody) : m_in(in), m_max(maxBody) {}

    Result run()
    {
        Result r;
        r.verdict = chunkedBody(r);
        r.used = r.verdict == Verdict::Done ? m_pos : 0;
        return r;
    }

private:
    static constexpr std::size_t maxLine = 8192;
    static constexpr std::size_t maxTrailer = 64 << 10;

    // An outcome of one rule: matched (go on), or the whole parse ends with NeedMore/Error.
    enum class Step
    {
        Ok,
        More,
        Bad
    };
    static Verdict verdictOf(Step s) { return s == Step::More ? Verdict::NeedMore : Verdict::Error; }

    bool atEnd() const { return m_pos >= m_in.size(); }
    unsigned char peek() const { return static_cast<unsigned char>(m_in[m_pos]); }

    static bool hexdig(unsigned char c)
    {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
    static bool tchar(unsigned char c)
    {
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            return true;
        return std::string_view("!#$%&'*+-.^_`|~").find(char(c)) != std::string_view::npos;
    }
    static bool ws(unsigned char c) { return c == ' ' || c == '\t'; }

    // The line limit, checked before the line is parsed: the bytes up to its CR (or the end of
    // the input) may not exceed maxLine. An over-long line is an error whatever it holds.
    bool lineTooLong() const
    {
        const auto cr = m_in.find('\r', m_pos);
        const std::size_t end = cr == std::string_view::npos ? m_in.size() : cr;
        return end - m_pos > maxLine;
    }

    Step crlf()
    {
        if (atEnd())
            return Step::More;
        if (peek() != '\r')
            return Step::Bad;
        ++m_pos;
        if (atEnd())
            return Step::More;
        if (peek() != '\n')
            return Step::Bad;
        ++m_pos;
        return Step::Ok;
    }

    // *( SP / HTAB )
    void bws()
    {
        while (!atEnd() && ws(peek()))
            ++m_pos;
    }

    Step token()
    {
        const std::size_t from = m_pos;
        while (!atEnd() && tchar(peek()))
            ++m_pos;
        if (m_pos == from)
            return atEnd() ? Step::More : Step::Bad;
        return Step::Ok;
    }

    // DQUOTE *( qdtext / quoted-pair ) DQUOTE
    Step quotedString()
    {
        ++m_pos; // the opening DQUOTE, checked by the caller
        for (;;) {
            if (atEnd())
                return Step::More;
            const unsigned char c = peek();
            ++m_pos;
            if (c == '"')
                return Step::Ok;
            if (c == '\\') {
                if (atEnd())
                    return Step::More;
                const unsigned char q = peek();
                ++m_pos;
                if (!(q == '\t' || q == ' ' || (q >= 0x21 && q != 0x7f)))
                    return Step::Bad;
                continue;
            }
            const bool qdtext = c == '\t' || c == ' ' || c == 0x21 || (c >= 0x23 && c <= 0x5b) ||
                                (c >= 0x5d && c <= 0x7e) || c >= 0x80;
            if (!qdtext)
                return Step::Bad;
        }
    }

    // chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), then CRLF.
    // The token rule is greedy, so a name or token value ends only at a byte that is not
    // tchar; BWS may then be followed only by ";" / "=" (never by the CRLF).
    Step extensionsThenCrlf()
    {
        for (;;) {
            if (atEnd())
                return Step::More;
            if (peek() == '\r')
                return crlf();
            bws();
            if (atEnd())
                return Step::More;
            if (peek() != ';')
                return Step::Bad;
            ++m_pos;
            bws();
            if (const Step s = token(); s != Step::Ok)
                return s;
            const std::size_t afterName = m_pos;
            bws();
            if (atEnd())
                return Step::More;
            if (peek() != '=') {
                if (m_pos != afterName && peek() != ';')
                    return Step::Bad; // BWS after a name must lead to "=" or ";"
                continue;
            }
            ++m_pos;
            bws();
            if (atEnd())
                return Step::More;
            const Step s = peek() == '"' ? quotedString() : token();
            if (s != Step::Ok)
                return s;
        }
    }

    // chunk-size [ chunk-ext ] CRLF; *size gets the value.
    Step sizeLine(std::uint64_t *size)
    {
        if (lineTooLong())
            return Step::Bad;
        std::uint64_t value = 0;
        int significant = 0;
        std::size_t digits = 0;
        while (!atEnd() && hexdig(peek())) {
            const unsigned char c = peek();
            const unsigned d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
            if (significant > 0 || d > 0)
                if (++significant > 15)
                    return Step::Bad;
            value = value * 16 + d;
            ++digits;
            ++m_pos;
        }
        if (digits == 0)
            return atEnd() ? Step::More : Step::Bad;
        *size = value;
        return extensionsThenCrlf();
    }

    // field-name ":" OWS field-value OWS, then CRLF
    Step fieldLine()
    {
        if (lineTooLong())
            return Step::Bad;
        if (const Step s = token(); s != Step::Ok)
            return s;
        if (atEnd())
            return Step::More;
        if (peek() != ':')
            return Step::Bad;
        ++m_pos;
        while (!atEnd() && peek() != '\r') {
            const unsigned char c = peek();
            if (!(c == '\t' || (c >= 0x20 && c != 0x7f)))
                return Step::Bad;
            ++m_pos;
        }
        return crlf();
    }

    Verdict chunkedBody(Result &r)
    {
        for (;;) {
            std::uint64_t size = 0;
            if (const Step s = sizeLine(&size); s != Step::Ok)
                return verdictOf(s);
            r.bodyBytes += size;
            if (r.bodyBytes > m_max) {
                r.tooLarge = true;
                return Verdict::Error;
            }
            if (size == 0)
                break;
            if (m_in.size() - m_pos < size)
                return Verdict::NeedMore;
            m_pos += static_cast<std::size_t>(size);
            if (const Step s = crlf(); s != Step::Ok)
                return verdictOf(s);
        }
        // trailer-section CRLF, at most maxTrailer bytes with the final CRLF: a section that
        // is longer, or an input that runs on past that many bytes of it, is an error.
        const std::size_t sectionStart = m_pos;
        const Verdict v = trailerSection();
        const std::size_t seen = v == Verdict::Done ? m_pos : m_in.size();
        if (v != Verdict::Error && seen - sectionStart > maxTrailer)
            return Verdict::Error;
        return v;
    }

    Verdict trailerSection()
    {
        for (;;) {
            if (atEnd())
                return Verdict::NeedMore;
            if (peek() == '\r') {
                const Step s = crlf();
                return s == Step::Ok ? Verdict::Done : verdictOf(s);
            }
            if (const Step s = fieldLine(); s != Step::Ok)
                return verdictOf(s);
        }
    }

    std::string_view m_in;
    std::uint64_t m_max;
    std::size_t m_pos = 0;
};

inline Result parse(std::string_view in, std::uint64_t maxBody)
{
    return Reference(in, maxBody).run();
}

} // namespace chunkedreference
