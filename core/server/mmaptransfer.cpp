// SPDX-License-Identifier: Apache-2.0
#include "mmaptransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include <algorithm>

namespace servelab::server {

MmapTransfer::MmapTransfer(const ServerOptions &options)
{
    retune(options);
}

void MmapTransfer::retune(const ServerOptions &options)
{
    m_chunk = std::max<std::size_t>(options.sendfileChunk, 4096);
    m_coalesce = options.coalesceHeader;
}

WriteStatus MmapTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    if (r.remaining > 0 && !r.mapping && !(r.mapping = m_mappings.map(r.file)))
        return WriteStatus::Error;
    return sendInSlices(socket, r, sent, m_coalesce, m_chunk, [&](std::uint64_t most) {
        return std::optional<std::string_view>(
            std::string_view(r.mapping->data() + r.offset, static_cast<std::size_t>(most)));
    });
}

} // namespace servelab::server
