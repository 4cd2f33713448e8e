// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace servelab::http {

enum class Method
{
    Get,
    Head,
    Options,
    Other // any other token: answered 405
};

// One parsed request head. The target is copied so the request outlives the read buffer.
struct Request
{
    Method method = Method::Get;
    std::string target;
    int versionMinor = 1; // HTTP/1.<minor>
    bool keepAlive = true;
    std::uint64_t contentLength = 0;
    bool chunked = false;             // the body is framed by chunked transfer coding
    std::time_t ifModifiedSince = -1; // -1: absent or not a valid HTTP date (then ignored)
    std::string range;                // the raw Range value, empty when absent
};

} // namespace servelab::http
