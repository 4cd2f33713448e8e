// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"
#include "mappingcache.h"

#include <cstddef>

namespace servelab::server {

// writev() the head with slices of the file's mapping: no read copy. The mappings are kept
// (MappingCache), so a file served again costs neither mmap(), page faults nor munmap().
class MmapTransfer final : public BodyTransfer
{
public:
    explicit MmapTransfer(const ServerOptions &options);
    WriteStatus write(int socket, OutgoingResponse &response, std::uint64_t *sent) override;
    void retune(const ServerOptions &options) override;
    std::shared_ptr<const FileMapping> mapping(const http::OpenedFile &file) override
    {
        return m_mappings.map(file);
    }

private:
    std::size_t m_chunk;
    bool m_coalesce;
    MappingCache m_mappings;
};

} // namespace servelab::server
