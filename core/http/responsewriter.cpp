// SPDX-License-Identifier: Apache-2.0
#include "responsewriter.h"

#include "httpdate.h"

#include <charconv>

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

void appendResponseHead(std::string &out, const ResponseHead &head, std::string_view date)
{
    out += "HTTP/1.1 ";
    appendNumber(out, static_cast<std::uint64_t>(head.status));
    out += ' ';
    out += reasonPhrase(head.status);
    out += "\r\nServer: ServeLab\r\nDate: ";
    out += date;
    if (!head.contentType.empty()) {
        out += "\r\nContent-Type: ";
        out += head.contentType;
    }
    if (!head.omitContentLength) {
        out += "\r\nContent-Length: ";
        appendNumber(out, head.contentLength);
    }
    if (head.range == ResponseHead::Range::Partial) {
        out += "\r\nContent-Range: bytes ";
        appendNumber(out, head.rangeFirst);
        out += '-';
        appendNumber(out, head.rangeLast);
        out += '/';
        appendNumber(out, head.completeLength);
    } else if (head.range == ResponseHead::Range::Unsatisfiable) {
        out += "\r\nContent-Range: bytes */";
        appendNumber(out, head.completeLength);
    }
    if (head.acceptRanges)
        out += "\r\nAccept-Ranges: bytes";
    if (head.lastModified >= 0) {
        out += "\r\nLast-Modified: ";
        if (!head.lastModifiedText.empty())
            out += head.lastModifiedText;
        else
            out += formatHttpDate(head.lastModified);
    }
    if (head.allow || head.status == 405) // RFC 9110 §15.5.6: a 405 must say what is allowed
        out += "\r\nAllow: GET, HEAD, OPTIONS";
    if (!head.keepAlive)
        out += "\r\nConnection: close";
    else if (head.http10)
        out += "\r\nConnection: keep-alive";
    out += "\r\n\r\n";
}

std::string errorResponse(int status, bool keepAlive, bool http10, bool headOnly,
                          std::string_view date)
{
    std::string body = "<!DOCTYPE html>\n<title>";
    appendNumber(body, static_cast<std::uint64_t>(status));
    body += ' ';
    body += reasonPhrase(status);
    body += "</title>\n<h1>";
    body += reasonPhrase(status);
    body += "</h1>\n";
    ResponseHead head;
    head.status = status;
    head.contentLength = body.size();
    head.contentType = "text/html; charset=utf-8";
    head.keepAlive = keepAlive && !statusClosesConnection(status);
    head.http10 = http10;
    std::string out;
    out.reserve(200 + body.size());
    appendResponseHead(out, head, date);
    if (!headOnly)
        out += body;
    return out;
}

} // namespace servelab::http
