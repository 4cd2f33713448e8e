// SPDX-License-Identifier: Apache-2.0
#include "responseparser.h"

#include "http/textutil.h"

namespace servelab::client {

using http::equalsIgnoreCase;

ResponseParser::Status ResponseParser::parse(std::string_view in)
{
    // Resume the search for the blank line a little before where the last call stopped.
    const std::size_t from = m_scanned > 3 ? m_scanned - 3 : 0;
    const auto end = in.find("\r\n\r\n", from);
    if (end == std::string_view::npos) {
        m_scanned = in.size();
        return in.size() > maxHeadBytes ? fail() : Status::NeedMore;
    }
    if (end + 4 > maxHeadBytes)
        return fail();
    m_headLength = end + 4;
    auto head = in.substr(0, end);
    auto lineEnd = head.find("\r\n");
    if (!parseStatusLine(head.substr(0, lineEnd)))
        return fail();
    bool close = false;
    bool keepAliveToken = false;
    while (lineEnd != std::string_view::npos) {
        head.remove_prefix(lineEnd + 2);
        lineEnd = head.find("\r\n");
        if (!parseField(head.substr(0, lineEnd), close, keepAliveToken))
            return fail();
    }
    if (m_chunked && m_contentLength)
        return fail(); // ambiguous framing (RFC 9112 §6.3): do not guess
    m_keepAlive = m_versionMinor >= 1 ? !close : (keepAliveToken && !close);
    return Status::Done;
}

bool ResponseParser::parseStatusLine(std::string_view line)
{
    // HTTP-version SP 3DIGIT SP [reason-phrase]
    if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || line[8] != ' ' ||
        (line.size() > 12 && line[12] != ' '))
        return false;
    if (line[7] != '0' && line[7] != '1')
        return false;
    m_versionMinor = line[7] - '0';
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return false;
        status = status * 10 + (line[i] - '0');
    }
    if (status < 100)
        return false;
    m_status = status;
    return true;
}

bool ResponseParser::parseField(std::string_view line, bool &close, bool &keepAliveToken)
{
    const auto colon = line.find(':');
    if (colon == std::string_view::npos || !http::isToken(line.substr(0, colon)))
        return false;
    for (unsigned char c : line)
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    const auto name = line.substr(0, colon);
    const auto value = http::trimOws(line.substr(colon + 1));
    if (equalsIgnoreCase(name, "content-length")) {
        bool ok = true;
        http::forEachListElement(value, [&](std::string_view element) {
            const auto length = http::parseDecimal(element);
            if (!length || (m_contentLength && *m_contentLength != *length))
                ok = false;
            else
                m_contentLength = length;
        });
        return ok && m_contentLength.has_value();
    }
    if (equalsIgnoreCase(name, "transfer-encoding")) {
        http::forEachListElement(value, [&](std::string_view coding) {
            m_chunked = equalsIgnoreCase(coding, "chunked");
        });
    } else if (equalsIgnoreCase(name, "connection")) {
        http::forEachListElement(value, [&](std::string_view token) {
            close |= equalsIgnoreCase(token, "close");
            keepAliveToken |= equalsIgnoreCase(token, "keep-alive");
        });
    }
    return true;
}

} // namespace servelab::client
