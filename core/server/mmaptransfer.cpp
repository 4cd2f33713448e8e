#include "mmaptransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include <algorithm>

namespace servelab::server {

MmapTransfer::MmapTransfer(const ServerOptions &options)
    : m_chunk(std::max<std::size_t>(options.sendfileChunk, 4096)),
      m_coalesce(options.coalesceHeader)
{}

WriteStatus MmapTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    if (!m_coalesce || r.remaining == 0) {
        const auto status = sendHead(socket, r, sent, false);
        if (status != WriteStatus::Done)
            return status;
    }
    if (r.remaining == 0)
        return WriteStatus::Done;
    if (!r.mapping.mapped() && !r.mapping.map(r.file.fd, static_cast<std::size_t>(r.file.size)))
        return WriteStatus::Error;
    std::uint64_t budget = m_chunk;
    while (r.remaining > 0) {
        if (budget == 0)
            return WriteStatus::Yield;
        const auto length = static_cast<std::size_t>(std::min(r.remaining, budget));
        const std::uint64_t before = *sent;
        const auto status = writeHeadAndBody(socket, r, r.mapping.data() + r.offset, length, sent);
        budget -= std::min<std::uint64_t>(budget, *sent - before);
        if (status != WriteStatus::Done)
            return status;
    }
    return WriteStatus::Done;
}

} // namespace servelab::server
