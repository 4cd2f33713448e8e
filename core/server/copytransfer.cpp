#include "copytransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include <algorithm>
#include <cerrno>
#include <unistd.h>

namespace servelab::server {

CopyTransfer::CopyTransfer(const ServerOptions &options)
    : m_chunk(std::max<std::size_t>(options.sendfileChunk, 4096)),
      m_coalesce(options.coalesceHeader), m_buffer(std::max<std::size_t>(options.bufferSize, 512))
{}

WriteStatus CopyTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    if (!m_coalesce || r.remaining == 0) {
        const auto status = sendHead(socket, r, sent, false);
        if (status != WriteStatus::Done)
            return status;
    }
    std::uint64_t budget = m_chunk;
    while (r.remaining > 0) {
        if (budget == 0)
            return WriteStatus::Yield;
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(r.remaining, m_buffer.size()));
        ssize_t got;
        do {
            got = pread(r.file.fd, m_buffer.data(), want, r.offset);
        } while (got < 0 && errno == EINTR);
        if (got <= 0)
            return WriteStatus::Error; // read error, or the file was truncated
        const std::uint64_t before = *sent;
        const auto status =
            writeHeadAndBody(socket, r, m_buffer.data(), static_cast<std::size_t>(got), sent);
        budget -= std::min<std::uint64_t>(budget, *sent - before);
        if (status != WriteStatus::Done)
            return status;
    }
    return WriteStatus::Done;
}

} // namespace servelab::server
