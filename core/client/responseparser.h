// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace servelab::client {

// Parses an HTTP/1.x response head (RFC 9112 §4–6) for the load clients: the status, how the
// body is framed, and whether the server keeps the connection.
class ResponseParser
{
public:
    enum class Status
    {
        NeedMore,
        Done,
        Error
    };
    static constexpr std::size_t maxHeadBytes = 64 * 1024;

    Status parse(std::string_view received);
    void reset() { *this = ResponseParser(); }

    int status() const { return m_status; }
    int versionMinor() const { return m_versionMinor; }
    std::size_t headLength() const { return m_headLength; }
    std::optional<std::uint64_t> contentLength() const { return m_contentLength; }
    bool chunked() const { return m_chunked; }
    bool keepAlive() const { return m_keepAlive; }
    // Responses that never carry a body whatever their headers say (RFC 9112 §6.3).
    bool bodyless() const { return m_status == 204 || m_status == 304 || m_status / 100 == 1; }

private:
    Status fail() { return Status::Error; }
    bool parseStatusLine(std::string_view line);
    bool parseField(std::string_view line, bool &close, bool &keepAliveToken);

    int m_status = 0;
    int m_versionMinor = 1;
    std::size_t m_headLength = 0;
    std::size_t m_scanned = 0;
    std::optional<std::uint64_t> m_contentLength;
    bool m_chunked = false;
    bool m_keepAlive = true;
};

} // namespace servelab::client
