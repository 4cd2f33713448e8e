// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "chunkeddecoder.h"
#include "request.h"

#include <cstdint>
#include <string_view>

namespace servelab::http {

// Skips the body of a request, framed by Content-Length or by chunked transfer coding, checking
// the framing, so the next request on the connection starts where it should.
class RequestBodyDrain
{
public:
    enum class Status
    {
        Done,     // no body left (or none at all)
        NeedMore, // all of `in` was body; more is to come
        Error,    // the chunked framing is broken: the connection cannot go on
    };

    explicit RequestBodyDrain(std::uint64_t maxBody) : m_maxBody(maxBody), m_chunked(maxBody) {}

    void start(const Request &request);
    bool pending() const { return m_toSkip > 0 || m_isChunked; }
    // After Error: the chunked body went past the limit (413), rather than broke its framing.
    bool tooLarge() const { return m_chunked.tooLarge(); }
    // Consumes body bytes from `in`; *used tells how many.
    Status feed(std::string_view in, std::size_t *used);

private:
    std::uint64_t m_maxBody;
    std::uint64_t m_toSkip = 0;
    bool m_isChunked = false;
    ChunkedDecoder m_chunked;
};

} // namespace servelab::http
