// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"

#include <cstddef>
#include <vector>

namespace servelab::server {

// Read into a buffer of B bytes, write it out (Tomcat's and grizzly's plain copy): pread at the
// response's offset, then one writev of the unsent head and the buffer. A partial write is not
// kept per connection; the rest is read again next time, so the thread needs one buffer only.
class CopyTransfer final : public BodyTransfer
{
public:
    explicit CopyTransfer(const ServerOptions &options);
    WriteStatus write(int socket, OutgoingResponse &response, std::uint64_t *sent) override;
    void retune(const ServerOptions &options) override;

private:
    std::size_t m_chunk;
    bool m_coalesce;
    std::vector<char> m_buffer;
};

} // namespace servelab::server
