// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"

#include <cstddef>
#include <vector>

namespace servelab::server {

// Small bodies: one writev(head, body). Larger ones: the head with MSG_MORE so it shares a
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
    std::vector<char> m_scratch;
};

} // namespace servelab::server
