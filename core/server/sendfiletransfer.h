// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"
#include "mappingcache.h"

#include <cstddef>
#include <vector>

namespace servelab::server {

// Small bodies: one writev(head, body), the body read with pread() or, with the open-file cache
// on, from the file's mapping, kept like its descriptor (MappingCache): one system call per
// response besides the request's read. Larger ones: the head with MSG_MORE so it shares a
// segment with the first body bytes, then sendfile() in calls of at most `chunk` bytes; with
// ServerOptions::tcpNoPush all of it under TCP_CORK.
class SendfileTransfer final : public BodyTransfer
{
public:
    explicit SendfileTransfer(const ServerOptions &options);
    WriteStatus write(int socket, OutgoingResponse &response, std::uint64_t *sent) override;
    void retune(const ServerOptions &options) override;

private:
    static bool setCork(int socket, bool on);

    std::size_t m_threshold;
    std::size_t m_chunk;
    bool m_coalesce;
    bool m_cork;
    bool m_mapSmall; // the open-file cache is on: small bodies from m_mappings
    std::vector<char> m_scratch;
    MappingCache m_mappings;
};

} // namespace servelab::server
