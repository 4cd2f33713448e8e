// SPDX-License-Identifier: Apache-2.0
#include "requestbodydrain.h"

#include <algorithm>

namespace servelab::http {

void RequestBodyDrain::start(const Request &request)
{
    m_toSkip = request.chunked ? 0 : request.contentLength;
    m_isChunked = request.chunked;
    m_chunked = ChunkedDecoder(m_maxBody);
}

RequestBodyDrain::Status RequestBodyDrain::feed(std::string_view in, std::size_t *used)
{
    *used = 0;
    if (m_isChunked) {
        const auto status = m_chunked.feed(in, used);
        if (status == ChunkedDecoder::Status::Error)
            return Status::Error;
        if (status == ChunkedDecoder::Status::NeedMore)
            return Status::NeedMore;
        m_isChunked = false;
        return Status::Done;
    }
    const auto skip = std::min<std::uint64_t>(m_toSkip, in.size());
    *used = static_cast<std::size_t>(skip);
    m_toSkip -= skip;
    return m_toSkip == 0 ? Status::Done : Status::NeedMore;
}

} // namespace servelab::http
