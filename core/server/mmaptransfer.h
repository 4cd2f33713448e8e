// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"

#include <cstddef>

namespace servelab::server {

// mmap() the file once per response and writev() the head with slices of the mapping: no read
// copy, but page faults on first touch and a mapping per response.
class MmapTransfer final : public BodyTransfer
{
public:
    explicit MmapTransfer(const ServerOptions &options);
    WriteStatus write(int socket, OutgoingResponse &response, std::uint64_t *sent) override;
    void retune(const ServerOptions &options) override;

private:
    std::size_t m_chunk;
    bool m_coalesce;
};

} // namespace servelab::server
