// SPDX-License-Identifier: Apache-2.0
#include "bodytransfer.h"

#include "copytransfer.h"
#include "mmaptransfer.h"
#include "outgoingresponse.h"
#include "sendfiletransfer.h"
#include "serveroptions.h"

#include <algorithm>
#include <cerrno>
#include <sys/socket.h>
#include <sys/uio.h>

namespace servelab::server {

std::unique_ptr<BodyTransfer> createBodyTransfer(const std::string &name,
                                                 const ServerOptions &options)
{
    if (name == "sendfile")
        return std::make_unique<SendfileTransfer>(options);
    if (name == "copy")
        return std::make_unique<CopyTransfer>(options);
    if (name == "mmap")
        return std::make_unique<MmapTransfer>(options);
    return nullptr;
}

WriteStatus BodyTransfer::statusForErrno()
{
    return (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::Again : WriteStatus::Error;
}

WriteStatus BodyTransfer::sendHead(int socket, OutgoingResponse &r, std::uint64_t *sent, bool more)
{
    const int flags = MSG_NOSIGNAL | (more && r.remaining > 0 ? MSG_MORE : 0);
    while (r.headSent < r.head.size()) {
        const ssize_t n =
            ::send(socket, r.head.data() + r.headSent, r.head.size() - r.headSent, flags);
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

WriteStatus BodyTransfer::writeHeadAndBody(int socket, OutgoingResponse &r, const char *body,
                                           std::size_t length, std::uint64_t *sent)
{
    const std::size_t headLeft = r.head.size() - r.headSent;
    iovec iov[2] = {{r.head.data() + r.headSent, headLeft}, {const_cast<char *>(body), length}};
    iovec *first = headLeft ? iov : iov + 1;
    const int count = headLeft ? 2 : 1;
    // sendmsg, not writev: MSG_NOSIGNAL turns a vanished peer into EPIPE instead of SIGPIPE.
    msghdr message{};
    message.msg_iov = first;
    message.msg_iovlen = static_cast<std::size_t>(count);
    ssize_t n;
    do {
        n = ::sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return statusForErrno();
    const auto headPart = std::min<std::size_t>(static_cast<std::size_t>(n), headLeft);
    const auto bodyPart = static_cast<std::size_t>(n) - headPart;
    r.headSent += headPart;
    r.offset += static_cast<off_t>(bodyPart);
    r.remaining -= bodyPart;
    *sent += static_cast<std::uint64_t>(n);
    return (headPart == headLeft && bodyPart == length) ? WriteStatus::Done : WriteStatus::Again;
}

} // namespace servelab::server
