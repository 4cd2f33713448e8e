#pragma once

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
};

// The transfer named `name` (the part of a mode after '+'), or nullptr if there is none.
std::unique_ptr<BodyTransfer> createBodyTransfer(const std::string &name,
                                                 const ServerOptions &options);

} // namespace servelab::server
