#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace servelab::server {

struct OutgoingResponse;
struct ServerOptions;

enum class WriteStatus
{
    Done,  // the response is out
    Again, // the socket is full; wait for EPOLLOUT
    Yield, // this connection had its share; let the others of the thread run
    Error, // the peer is gone or the file failed; close
};

// How a response body travels from the file to the socket (design.md: body transfer). One
// instance per server thread, so implementations may keep scratch buffers without locks.
class BodyTransfer
{
public:
    virtual ~BodyTransfer() = default;
    // Sends what it can of `response`, adding the bytes written to *sent.
    virtual WriteStatus write(int socket, OutgoingResponse &response, std::uint64_t *sent) = 0;

protected:
    // The unsent head, with MSG_MORE when `more` (so it shares a segment with the body).
    static WriteStatus sendHead(int socket, OutgoingResponse &response, std::uint64_t *sent,
                                bool more);
    // One writev() of the unsent head (if any) and `length` body bytes at the response's offset;
    // advances the response by what went out. Done only when all of it did.
    static WriteStatus writeHeadAndBody(int socket, OutgoingResponse &response, const char *body,
                                        std::size_t length, std::uint64_t *sent);
    static WriteStatus statusForErrno();
};

// The transfer named `name` (the part of a mode after '+'), or nullptr if there is none.
std::unique_ptr<BodyTransfer> createBodyTransfer(const std::string &name,
                                                 const ServerOptions &options);

} // namespace servelab::server
