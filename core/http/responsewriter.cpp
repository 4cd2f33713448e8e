// SPDX-License-Identifier: Apache-2.0
#include "responsewriter.h"

#include "httpdate.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <span>

namespace servelab::http {

std::string_view reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 416: return "Range Not Satisfiable";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

bool statusClosesConnection(int status)
{
    return status == 400 || status == 408 || status == 413 || status == 414 || status == 431 ||
           status == 501 || status == 505;
}

static void appendNumber(std::string &out, std::uint64_t value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

namespace {

// Writes numbers and literal text into ResponseFields::text; each value a view of what it wrote.
class FieldText
{
public:
    explicit FieldText(char *buffer, std::size_t size) : m_at(buffer), m_end(buffer + size) {}
    const char *mark() const { return m_at; }
    void put(std::string_view literal)
    {
        const std::size_t n = std::min<std::size_t>(literal.size(), std::size_t(m_end - m_at));
        std::memcpy(m_at, literal.data(), n);
        m_at += n;
    }
    void put(std::uint64_t value) { m_at = std::to_chars(m_at, m_end, value).ptr; }
    std::string_view since(const char *mark) const { return {mark, std::size_t(m_at - mark)}; }

private:
    char *m_at;
    char *m_end;
};

} // namespace

void listResponseFields(const ResponseHead &head, std::string_view date, bool http2,
                        ResponseFields *out)
{
    auto &f = out->fields;
    std::size_t n = 0;
    FieldText text(out->text, sizeof out->text);
    f[n++] = {"Server", "server", "ServeLab"};
    f[n++] = {"Date", "date", date};
    if (!head.contentType.empty())
        f[n++] = {"Content-Type", "content-type", head.contentType};
    if (!head.omitContentLength) {
        const char *at = text.mark();
        text.put(head.contentLength);
        f[n++] = {"Content-Length", "content-length", text.since(at)};
    }
    if (head.range != ResponseHead::Range::None) {
        const char *at = text.mark();
        text.put("bytes ");
        if (head.range == ResponseHead::Range::Partial) {
            text.put(head.rangeFirst);
            text.put("-");
            text.put(head.rangeLast);
        } else {
            text.put("*");
        }
        text.put("/");
        text.put(head.completeLength);
        f[n++] = {"Content-Range", "content-range", text.since(at)};
    }
    if (head.acceptRanges)
        f[n++] = {"Accept-Ranges", "accept-ranges", "bytes"};
    if (head.lastModified >= 0) {
        // An unformatted time is formatted into `text` (29 bytes: IMF-fixdate).
        std::string_view value = head.lastModifiedText;
        if (value.empty()) {
            const char *at = text.mark();
            text.put(formatHttpDate(head.lastModified));
            value = text.since(at);
        }
        f[n++] = {"Last-Modified", "last-modified", value};
    }
    if (head.allow || head.status == 405) // RFC 9110 §15.5.6: a 405 must say what is allowed
        f[n++] = {"Allow", "allow", "GET, HEAD, OPTIONS"};
    if (!http2) {
        if (!head.keepAlive)
            f[n++] = {"Connection", "connection", "close"};
        else if (head.http10)
            f[n++] = {"Connection", "connection", "keep-alive"};
    }
    out->count = n;
}

void appendResponseHead(std::string &out, const ResponseHead &head, std::string_view date)
{
    ResponseFields fields;
    listResponseFields(head, date, false, &fields);
    out += "HTTP/1.1 ";
    appendNumber(out, static_cast<std::uint64_t>(head.status));
    out += ' ';
    out += reasonPhrase(head.status);
    for (const auto &field : std::span(fields.fields, fields.count)) {
        out += "\r\n";
        out += field.name;
        out += ": ";
        out += field.value;
    }
    out += "\r\n\r\n";
}

std::string errorBody(int status)
{
    std::string body = "<!DOCTYPE html>\n<title>";
    appendNumber(body, static_cast<std::uint64_t>(status));
    body += ' ';
    body += reasonPhrase(status);
    body += "</title>\n<h1>";
    body += reasonPhrase(status);
    body += "</h1>\n";
    return body;
}

ResponseHead errorHead(int status, bool keepAlive, bool http10, std::size_t bodyLength)
{
    ResponseHead head;
    head.status = status;
    head.contentLength = bodyLength;
    head.contentType = "text/html; charset=utf-8";
    head.keepAlive = keepAlive && !statusClosesConnection(status);
    head.http10 = http10;
    return head;
}

std::string errorResponse(int status, bool keepAlive, bool http10, bool headOnly,
                          std::string_view date)
{
    const std::string body = errorBody(status);
    std::string out;
    out.reserve(200 + body.size());
    appendResponseHead(out, errorHead(status, keepAlive, http10, body.size()), date);
    if (!headOnly)
        out += body;
    return out;
}

} // namespace servelab::http
