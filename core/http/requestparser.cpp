#include "requestparser.h"

#include "httpdate.h"
#include "textutil.h"

namespace servelab::http {

namespace {

// RFC 9112 §2.2 asks servers to ignore at least one empty line before the request line; a
// client sending more than a few is not a client.
constexpr int maxLeadingEmptyLines = 4;

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
    m_request = Request{};
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
        if (i - m_lineStart >= (m_lines == 0 ? m_limits.maxRequestLine : m_limits.maxFieldLine))
            return fail(m_lines == 0 ? 414 : 431);
    }
    m_scanned = i;
    if (m_scanned - m_headStart > m_limits.maxHeadBytes)
        return fail(431);
    if (m_lines > m_limits.maxFields + 1) // m_lines counts the request line too
        return fail(431);
    return Status::NeedMore;
}

RequestParser::Status RequestParser::parseHead(std::string_view head)
{
    // `head` holds the request line and the field lines, each CRLF-terminated except the last.
    auto end = head.find("\r\n");
    if (!parseRequestLine(head.substr(0, end)))
        return Status::Error;
    int hostCount = 0;
    int fields = 0;
    bool chunked = false;
    bool sawLength = false;
    bool close = false;
    bool keepAliveToken = false;
    while (end != std::string_view::npos) {
        head.remove_prefix(end + 2);
        end = head.find("\r\n");
        const auto line = head.substr(0, end);
        if (++fields > m_limits.maxFields)
            return fail(431);
        if (!parseField(line, hostCount, chunked, sawLength))
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
    if ((http11 && hostCount != 1) || hostCount > 1)
        return fail(400);
    if (chunked) {
        // RFC 9112 §6.1: Transfer-Encoding in HTTP/1.0 is a smuggling vector, and with
        // Content-Length the framing is ambiguous: refuse both (and close).
        if (!http11 || sawLength)
            return fail(400);
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
    m_request.method = method == "GET"    ? Method::Get
                       : method == "HEAD" ? Method::Head
                                          : Method::Other;
    const auto path = originFormOf(target);
    if (path.front() != '/' && !(path == "*" && m_request.method == Method::Other)) {
        fail(400);
        return false;
    }
    m_request.target.assign(path);
    return true;
}

bool RequestParser::parseField(std::string_view line, int &hostCount, bool &chunked,
                               bool &sawLength)
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
        ++hostCount;
    } else if (equalsIgnoreCase(name, "content-length")) {
        // RFC 9110 §8.6: a list of identical values may be accepted; anything else is invalid.
        bool ok = !value.empty();
        forEachListElement(value, [&](std::string_view element) {
            const auto length = parseDecimal(element);
            if (!length || (sawLength && *length != m_request.contentLength))
                ok = false;
            else
                m_request.contentLength = *length;
            sawLength = true;
        });
        if (!ok || value.back() == ',' || value.front() == ',') {
            fail(400);
            return false;
        }
    } else if (equalsIgnoreCase(name, "transfer-encoding")) {
        // We only need the framing, so the one coding we accept is a lone "chunked"; anything
        // else would need decoding we do not do (RFC 9112 §6.1: 501 for an unknown coding).
        int codings = 0;
        bool lastChunked = false;
        forEachListElement(value, [&](std::string_view coding) {
            ++codings;
            lastChunked = equalsIgnoreCase(coding, "chunked");
        });
        if (chunked || codings == 0) { // chunked twice, or an empty list: broken framing
            fail(400);
            return false;
        }
        if (codings != 1 || !lastChunked) {
            fail(501);
            return false;
        }
        chunked = true;
    } else if (equalsIgnoreCase(name, "if-modified-since")) {
        m_request.ifModifiedSince = parseHttpDate(value);
    } else if (equalsIgnoreCase(name, "range")) {
        m_request.range.assign(value);
    }
    return true;
}

} // namespace servelab::http
