// SPDX-License-Identifier: Apache-2.0
#include "copytransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include <algorithm>
#include <cerrno>
#include <unistd.h>

namespace servelab::server {

CopyTransfer::CopyTransfer(const ServerOptions &options)
{
    retune(options);
}

void CopyTransfer::retune(const ServerOptions &options)
{
    m_chunk = std::max<std::size_t>(options.sendfileChunk, 4096);
    m_coalesce = options.coalesceHeader;
    m_buffer.resize(std::max<std::size_t>(options.bufferSize, 512));
    m_buffer.shrink_to_fit();
}

WriteStatus CopyTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    return sendInSlices(socket, r, sent, m_coalesce, m_chunk,
                        [&](std::uint64_t most) -> std::optional<std::string_view> {
                            const auto want = static_cast<std::size_t>(
                                std::min<std::uint64_t>(most, m_buffer.size()));
                            ssize_t got;
                            do {
                                got = pread(r.file.fd, m_buffer.data(), want, r.offset);
                            } while (got < 0 && errno == EINTR);
                            if (got <= 0)
                                return std::nullopt; // read error, or the file was truncated
                            return std::string_view(m_buffer.data(), static_cast<std::size_t>(got));
                        });
}

} // namespace servelab::server
