// SPDX-License-Identifier: Apache-2.0
#include "sendfiletransfer.h"

#include "outgoingresponse.h"
#include "serveroptions.h"

#include <algorithm>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/sendfile.h>
#include <unistd.h>

namespace servelab::server {

namespace {
// Linux moves at most this much in one sendfile() call (sendfile(2), NOTES).
constexpr std::uint64_t sendfileMax = 0x7ffff000;
} // namespace

SendfileTransfer::SendfileTransfer(const ServerOptions &options) : m_cork(options.tcpNoPush)
{
    retune(options);
}

void SendfileTransfer::retune(const ServerOptions &options)
{
    m_threshold = options.sendfileThreshold;
    m_chunk = std::max<std::size_t>(options.sendfileChunk, 4096);
    m_coalesce = options.coalesceHeader;
    m_mapSmall = options.openFileCacheEntries > 0;
}

// TCP_CORK (nginx's tcp_nopush): only full segments leave until the response is done, and
// uncorking sends the partial one left at the end at once. nginx needs it (wrk read 1 MiB from
// nginx 25-35 % faster with tcp_nopush on); ServeLab does not (ServerOptions::tcpNoPush).
bool SendfileTransfer::setCork(int socket, bool on)
{
    const int value = on ? 1 : 0;
    return setsockopt(socket, IPPROTO_TCP, TCP_CORK, &value, sizeof value) == 0;
}

WriteStatus SendfileTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    if (m_coalesce && r.headSent == 0 && r.remaining > 0 && r.remaining <= m_threshold) {
        // The body from the kept mapping (the kernel reads it: bytes a truncation took away
        // make sendmsg() fail with EFAULT, not raise SIGBUS), else read here.
        const char *body = nullptr;
        if (m_mapSmall && (r.mapping || (r.mapping = m_mappings.map(r.file)))) {
            body = r.mapping->data() + r.offset;
        } else {
            m_scratch.resize(r.remaining);
            const ssize_t got = pread(r.file.fd, m_scratch.data(), r.remaining, r.offset);
            if (got != static_cast<ssize_t>(r.remaining))
                return WriteStatus::Error; // the file shrank under us; Content-Length is a lie
            body = m_scratch.data();
        }
        const auto status = writeHeadAndBody(socket, r, body, r.remaining, sent);
        if (status != WriteStatus::Again || r.done())
            return status;
        // A partial writev: whatever is left goes the ordinary way below.
    }
    if (r.headSent < r.head.size()) {
        if (m_cork && r.remaining > 0 && !r.corked)
            r.corked = setCork(socket, true);
        const auto status = sendHead(socket, r, sent, m_coalesce);
        if (status != WriteStatus::Done)
            return status;
    }
    std::uint64_t budget = m_chunk;
    while (r.remaining > 0) {
        if (budget == 0)
            return WriteStatus::Yield;
        const auto want = std::min({r.remaining, budget, sendfileMax});
        const ssize_t n = sendfile(socket, r.file.fd, &r.offset, want);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return statusForErrno();
        }
        if (n == 0)
            return WriteStatus::Error; // the file was truncated while being served
        r.remaining -= static_cast<std::uint64_t>(n);
        budget -= static_cast<std::uint64_t>(n);
        *sent += static_cast<std::uint64_t>(n);
    }
    if (r.corked)
        r.corked = !setCork(socket, false);
    return WriteStatus::Done;
}

} // namespace servelab::server
