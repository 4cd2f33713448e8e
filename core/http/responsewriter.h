// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
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

// The header fields of a response, in the order they go out: the one list both HTTP/1.1's head
// and HTTP/2's HEADERS are made from. Values are views into the head, the date or `text` (the
// numbers, formatted here), so the list is neither copied nor kept past them.
struct ResponseFields
{
    struct Field
    {
        std::string_view name;  // as HTTP/1.1 spells it
        std::string_view lower; // as HTTP/2 must (RFC 9113 §8.2.1)
        std::string_view value;
    };
    static constexpr std::size_t most = 10;
    Field fields[most];
    std::size_t count = 0;
    char text[128]; // the digits of Content-Length and Content-Range, an unformatted date

    ResponseFields() = default;
    ResponseFields(const ResponseFields &) = delete;
    ResponseFields &operator=(const ResponseFields &) = delete;
};

// Lists `head`'s fields into `out`. `http2`: without the connection-specific ones
// (Connection), which HTTP/2 forbids (RFC 9113 §8.2.2).
void listResponseFields(const ResponseHead &head, std::string_view date, bool http2,
                        ResponseFields *out);

// Appends the status line and header section, CRLFCRLF included, to `out`.
void appendResponseHead(std::string &out, const ResponseHead &head, std::string_view date);

// An error page's body (text/html), as errorResponse() sends it.
std::string errorBody(int status);
// The head errorResponse() sends with errorBody(status).
ResponseHead errorHead(int status, bool keepAlive, bool http10, std::size_t bodyLength);

// A complete error response with a short text/html body (none for HEAD). Codes that leave the
// connection unusable (400, 408, 413, 414, 431, 501, 505) always close it.
std::string errorResponse(int status, bool keepAlive, bool http10, bool headOnly,
                          std::string_view date);

// Whether the connection must close after answering `status` to a request we could not frame.
bool statusClosesConnection(int status);

} // namespace servelab::http
