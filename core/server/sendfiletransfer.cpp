#include "sendfiletransfer.h"

#include "outgoingresponse.h"

#include <algorithm>
#include <cerrno>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace servelab::server {

namespace {
// Linux moves at most this much in one sendfile() call (sendfile(2), NOTES).
constexpr std::uint64_t sendfileMax = 0x7ffff000;

WriteStatus statusForErrno()
{
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::Again : WriteStatus::Error;
}
} // namespace

SendfileTransfer::SendfileTransfer(std::size_t threshold, std::size_t chunk)
    : m_threshold(threshold), m_chunk(std::max<std::size_t>(chunk, 4096))
{}

WriteStatus SendfileTransfer::writeHeadWithBody(int socket, OutgoingResponse &r,
                                                std::uint64_t *sent)
{
    m_scratch.resize(r.remaining);
    const ssize_t got = pread(r.file.fd, m_scratch.data(), r.remaining, r.offset);
    if (got != static_cast<ssize_t>(r.remaining))
        return WriteStatus::Error; // the file shrank under us; Content-Length is already a lie
    iovec iov[2] = {{r.head.data(), r.head.size()}, {m_scratch.data(), m_scratch.size()}};
    ssize_t n;
    do {
        n = writev(socket, iov, 2);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return statusForErrno();
    const auto headPart = std::min<std::size_t>(static_cast<std::size_t>(n), r.head.size());
    const auto bodyPart = static_cast<std::size_t>(n) - headPart;
    r.headSent = headPart;
    r.offset += static_cast<off_t>(bodyPart);
    r.remaining -= bodyPart;
    *sent += static_cast<std::uint64_t>(n);
    return r.done() ? WriteStatus::Done : WriteStatus::Again;
}

WriteStatus SendfileTransfer::writeHead(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    const int flags = MSG_NOSIGNAL | (r.remaining > 0 ? MSG_MORE : 0);
    while (r.headSent < r.head.size()) {
        const ssize_t n =
            send(socket, r.head.data() + r.headSent, r.head.size() - r.headSent, flags);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return statusForErrno();
        }
        r.headSent += static_cast<std::size_t>(n);
        *sent += static_cast<std::uint64_t>(n);
    }
    return WriteStatus::Done;
}

WriteStatus SendfileTransfer::write(int socket, OutgoingResponse &r, std::uint64_t *sent)
{
    if (r.headSent == 0 && r.remaining > 0 && r.remaining <= m_threshold) {
        const auto status = writeHeadWithBody(socket, r, sent);
        if (status != WriteStatus::Again || r.done())
            return status;
        // A partial writev: whatever is left goes the ordinary way below.
    }
    if (r.headSent < r.head.size()) {
        const auto status = writeHead(socket, r, sent);
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
    return WriteStatus::Done;
}

} // namespace servelab::server
