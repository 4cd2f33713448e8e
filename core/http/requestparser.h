// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "request.h"

#include <cstddef>
#include <string_view>

namespace servelab::http {

struct ParserLimits
{
    std::size_t maxRequestLine = 8192;
    std::size_t maxFieldLine = 8192;
    std::size_t maxHeadBytes = 64 * 1024;
    int maxFields = 100;
};

// A strict parser for HTTP/1.x request heads (RFC 9112). Feed it the bytes received so far;
// it remembers how far it has looked so a head dribbled in byte by byte costs O(n).
class RequestParser
{
public:
    enum class Status
    {
        NeedMore,
        Done,
        Error
    };

    explicit RequestParser(ParserLimits limits = {}) : m_limits(limits) {}

    Status parse(std::string_view received);
    void reset();

    const Request &request() const { return m_request; }
    // Bytes of `received` the head took, CRLFCRLF included; the body (if any) follows.
    std::size_t headLength() const { return m_headLength; }
    // The status to answer with after Error: 400, 414, 431, 501 or 505.
    int errorStatus() const { return m_errorStatus; }

private:
    Status fail(int status);
    Status parseHead(std::string_view head);
    bool parseRequestLine(std::string_view line);
    struct Framing; // what the fields said about Host and the body's framing
    bool parseField(std::string_view line, Framing &framing);

    ParserLimits m_limits;
    Request m_request;
    std::size_t m_scanned = 0;   // bytes checked so far
    std::size_t m_headStart = 0; // after any empty lines that precede the request line
    std::size_t m_lineStart = 0;
    int m_lines = 0; // complete lines of the head seen so far
    std::size_t m_headLength = 0;
    int m_errorStatus = 0;
};

} // namespace servelab::http
