// SPDX-License-Identifier: Apache-2.0
#include "requestparser.h"

#include "hostfield.h"
#include "httpdate.h"
#include "textutil.h"

#include <cstring>

namespace servelab::http {

namespace {

// RFC 9112 §2.2 asks servers to ignore at least one empty line before the request line; a
// client sending more than a few is not a client.
constexpr int maxLeadingEmptyLines = 4;

// A method longer than any we implement is 501 (RFC 9112 §3), not a long request line's 414.
// The longest in IANA's method registry is 17 characters (UPDATEREDIRECTREF).
constexpr std::size_t maxMethodLength = 32;

bool isFieldValueChar(unsigned char c)
{
    // field-vchar = VCHAR / obs-text, plus SP and HTAB inside the value (RFC 9110 §5.5)
    return c == '\t' || (c >= 0x20 && c != 0x7f);
}

std::string_view originFormOf(std::string_view target)
{
    // absolute-form (RFC 9112 §3.2.2): a server must accept it; keep only the path and query.
    for (std::string_view scheme : {"http://", "https://"}) {
        if (target.size() > scheme.size() &&
            equalsIgnoreCase(target.substr(0, scheme.size()), scheme)) {
            const auto rest = target.substr(scheme.size());
            const auto slash = rest.find('/');
            return slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
        }
    }
    return target;
}

} // namespace

void RequestParser::reset()
{
    // Field by field, so the strings keep their capacity: no allocation per request.
    std::string target = std::move(m_request.target);
    std::string range = std::move(m_request.range);
    target.clear();
    range.clear();
    m_request = Request{};
    m_request.target = std::move(target);
    m_request.range = std::move(range);
    m_scanned = m_headStart = m_lineStart = m_headLength = 0;
    m_lines = 0;
    m_errorStatus = 0;
}

RequestParser::Status RequestParser::fail(int status)
{
    m_errorStatus = status;
    return Status::Error;
}

RequestParser::Status RequestParser::parse(std::string_view in)
{
    if (m_errorStatus)
        return Status::Error;
    std::size_t i = m_scanned;
    for (; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '\r') {
            if (i + 1 == in.size())
                break; // the LF may still come
            if (in[i + 1] != '\n')
                return fail(400); // bare CR
            const std::size_t lineLength = i - m_lineStart;
            if (lineLength == 0 && m_lines == 0) {
                if ((i + 2) / 2 > maxLeadingEmptyLines)
                    return fail(400);
                m_headStart = m_lineStart = i + 2;
                ++i;
                continue;
            }
            if (lineLength == 0) {
                m_headLength = i + 2;
                m_scanned = m_headLength;
                // A head that arrives whole in one read never reaches the check below.
                if (m_headLength - m_headStart > m_limits.maxHeadBytes)
                    return fail(431);
                return parseHead(in.substr(m_headStart, m_lineStart - 2 - m_headStart));
            }
            ++m_lines;
            m_lineStart = i + 2;
            ++i;
            continue;
        }
        if (c == '\n' || c == '\0')
            return fail(400); // bare LF, or NUL anywhere in the head
        if (i - m_lineStart >= (m_lines == 0 ? m_limits.maxRequestLine : m_limits.maxFieldLine)) {
            if (m_lines > 0)
                return fail(431);
            const bool inMethod = !std::memchr(in.data() + m_lineStart, ' ', i - m_lineStart);
            return fail(inMethod ? 501 : 414);
        }
    }
    m_scanned = i;
    if (m_scanned - m_headStart > m_limits.maxHeadBytes)
        return fail(431);
    if (m_lines > m_limits.maxFields + 1) // m_lines counts the request line too
        return fail(431);
    return Status::NeedMore;
}

struct RequestParser::Framing
{
    int hosts = 0;
    bool sawLength = false;
    int codings = 0;            // transfer codings, over every Transfer-Encoding line
    bool lastChunked = false;   // the final one is chunked
    bool chunkedEarlier = false; // chunked, then another coding after it
    bool unknownCoding = false; // a coding other than chunked
};

RequestParser::Status RequestParser::parseHead(std::string_view head)
{
    // `head` holds the request line and the field lines, each CRLF-terminated except the last.
    auto end = head.find("\r\n");
    if (!parseRequestLine(head.substr(0, end)))
        return Status::Error;
    Framing framing;
    int fields = 0;
    bool close = false;
    bool keepAliveToken = false;
    while (end != std::string_view::npos) {
        head.remove_prefix(end + 2);
        end = head.find("\r\n");
        const auto line = head.substr(0, end);
        if (++fields > m_limits.maxFields)
            return fail(431);
        if (!parseField(line, framing))
            return Status::Error;
        const auto colon = line.find(':');
        if (equalsIgnoreCase(line.substr(0, colon), "connection")) {
            forEachListElement(line.substr(colon + 1), [&](std::string_view token) {
                close |= equalsIgnoreCase(token, "close");
                keepAliveToken |= equalsIgnoreCase(token, "keep-alive");
            });
        }
    }
    const bool http11 = m_request.versionMinor >= 1;
    // RFC 9112 §3.2: exactly one Host in HTTP/1.1; never more than one.
    if ((http11 && framing.hosts != 1) || framing.hosts > 1)
        return fail(400);
    if (framing.codings > 0) {
        // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 is a smuggling vector, and with
        // Content-Length the framing is ambiguous: refuse both (and close). §6.3: when chunked
        // is not the final coding (or comes twice, §7) the length cannot be known: 400. Only
        // then is a coding we do not implement worth its 501 (§6.1).
        if (!http11 || framing.sawLength || !framing.lastChunked || framing.chunkedEarlier)
            return fail(400);
        if (framing.unknownCoding)
            return fail(501);
        m_request.chunked = true;
    }
    m_request.keepAlive = http11 ? !close : (keepAliveToken && !close);
    return Status::Done;
}

bool RequestParser::parseRequestLine(std::string_view line)
{
    const auto sp1 = line.find(' ');
    const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
        fail(400);
        return false;
    }
    const auto method = line.substr(0, sp1);
    const auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    const auto version = line.substr(sp2 + 1);
    if (!isToken(method) || target.empty()) {
        fail(400);
        return false;
    }
    if (method.size() > maxMethodLength) {
        fail(501);
        return false;
    }
    for (unsigned char c : target) {
        if (c <= 0x20 || c >= 0x7f) {
            fail(400);
            return false;
        }
    }
    if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
        version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9') {
        fail(400);
        return false;
    }
    if (version[5] != '1') {
        fail(505);
        return false;
    }
    m_request.versionMinor = version[7] - '0';
    m_request.method = method == "GET"       ? Method::Get
                       : method == "HEAD"    ? Method::Head
                       : method == "OPTIONS" ? Method::Options
                                             : Method::Other;
    const auto path = originFormOf(target);
    // asterisk-form is for OPTIONS only (RFC 9112 §3.2.4).
    if (path.front() != '/' && !(path == "*" && m_request.method == Method::Options)) {
        fail(400);
        return false;
    }
    m_request.target.assign(path);
    return true;
}

bool RequestParser::parseField(std::string_view line, Framing &framing)
{
    const auto colon = line.find(':');
    // A leading SP/HTAB is obs-fold (RFC 9112 §5.2), and a name must be a token with no
    // whitespace before the colon (§5.1): all are 400.
    if (colon == std::string_view::npos || !isToken(line.substr(0, colon))) {
        fail(400);
        return false;
    }
    const auto name = line.substr(0, colon);
    const auto value = trimOws(line.substr(colon + 1));
    for (unsigned char c : value) {
        if (!isFieldValueChar(c)) {
            fail(400);
            return false;
        }
    }
    if (equalsIgnoreCase(name, "host")) {
        ++framing.hosts;
        if (!isValidHostField(value)) { // RFC 9110 §7.2: a Host that is no authority is 400
            fail(400);
            return false;
        }
    } else if (equalsIgnoreCase(name, "content-length")) {
        // RFC 9110 §8.6: a list of identical values may be accepted; anything else is invalid.
        bool ok = !value.empty();
        forEachListElement(value, [&](std::string_view element) {
            const auto length = parseDecimal(element);
            if (!length || (framing.sawLength && *length != m_request.contentLength))
                ok = false;
            else
                m_request.contentLength = *length;
            framing.sawLength = true;
        });
        if (!ok || value.back() == ',' || value.front() == ',') {
            fail(400);
            return false;
        }
    } else if (equalsIgnoreCase(name, "transfer-encoding")) {
        // Every line adds to one list of codings (RFC 9110 §5.3); parseHead() judges it whole.
        bool empty = true;
        bool ok = true;
        forEachListElement(value, [&](std::string_view coding) {
            empty = false;
            // transfer-coding = token *( OWS ";" OWS transfer-parameter ): we know of none with
            // parameters, so anything but a bare "chunked" is a coding we do not implement.
            const auto name = trimOws(coding.substr(0, coding.find(';')));
            ok &= isToken(name);
            framing.chunkedEarlier |= framing.lastChunked;
            framing.lastChunked = equalsIgnoreCase(coding, "chunked");
            framing.unknownCoding |= !framing.lastChunked;
            ++framing.codings;
        });
        if (empty || !ok) { // an empty list, or a coding that is not a token: broken framing
            fail(400);
            return false;
        }
    } else if (equalsIgnoreCase(name, "if-modified-since")) {
        m_request.ifModifiedSince = parseHttpDate(value);
    } else if (equalsIgnoreCase(name, "range")) {
        m_request.range.assign(value);
    }
    return true;
}

} // namespace servelab::http
