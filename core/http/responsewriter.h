// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

namespace servelab::http {

struct ResponseHead
{
    int status = 200;
    std::uint64_t contentLength = 0;
    std::string_view contentType;
    std::time_t lastModified = -1;     // -1: no Last-Modified
    std::string_view lastModifiedText; // lastModified already formatted, when the caller has it
    bool keepAlive = true;
    bool http10 = false; // an HTTP/1.0 client needs "Connection: keep-alive" spelled out
    bool acceptRanges = false;
    bool omitContentLength = false; // 304: the length would describe the unsent representation
    bool allow = false;             // "Allow: GET, HEAD, OPTIONS" (always with a 405)
    // 206: "Content-Range: bytes first-last/complete"; 416: "bytes */complete"
    enum class Range
    {
        None,
        Partial,
        Unsatisfiable
    } range = Range::None;
    std::uint64_t rangeFirst = 0;
    std::uint64_t rangeLast = 0;
    std::uint64_t completeLength = 0;
};

std::string_view reasonPhrase(int status);

// Appends the status line and header section, CRLFCRLF included, to `out`.
void appendResponseHead(std::string &out, const ResponseHead &head, std::string_view date);

// A complete error response with a short text/html body (none for HEAD). Codes that leave the
// connection unusable (400, 408, 413, 414, 431, 501, 505) always close it.
std::string errorResponse(int status, bool keepAlive, bool http10, bool headOnly,
                          std::string_view date);

// Whether the connection must close after answering `status` to a request we could not frame.
bool statusClosesConnection(int status);

} // namespace servelab::http
