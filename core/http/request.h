#pragma once

#include <cstdint>
#include <string>

namespace servelab::http {

enum class Method
{
    Get,
    Head,
    Other
};

// One parsed request head. The target is copied so the request outlives the read buffer.
struct Request
{
    Method method = Method::Get;
    std::string target;
    int versionMinor = 1; // HTTP/1.<minor>
    bool keepAlive = true;
    std::uint64_t contentLength = 0;
};

} // namespace servelab::http
