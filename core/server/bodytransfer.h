// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "outgoingresponse.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace servelab::server {

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
    // The options were tuned while the server runs (chunk, threshold, buffer): from the next
    // write on. Nothing is carried from one write to the next, so no response is cut short.
    virtual void retune(const ServerOptions &options) = 0;
    // The mmap transfer's mapping of the whole of `file` (kept in its cache), for HTTP/2, which
    // frames the body itself; null from the others and when mmap() failed.
    virtual std::shared_ptr<const FileMapping> mapping(const http::OpenedFile &) { return {}; }

protected:
    // The unsent head, with MSG_MORE when `more` (so it shares a segment with the body).
    static WriteStatus sendHead(int socket, OutgoingResponse &response, std::uint64_t *sent,
                                bool more);
    // One writev() of the unsent head (if any) and `length` body bytes at the response's offset;
    // advances the response by what went out. Done only when all of it did.
    static WriteStatus writeHeadAndBody(int socket, OutgoingResponse &response, const char *body,
                                        std::size_t length, std::uint64_t *sent);
    static WriteStatus statusForErrno();

    // What copy and mmap share: unless coalescing lets the head ride with the first slice, the
    // head goes alone; then slices from `nextSlice(maxBytes)` (nullopt: the file failed) go out
    // with writeHeadAndBody() until the response is done, the socket is full, or `chunk` bytes
    // went out this turn (then Yield).
    template<typename NextSlice>
    static WriteStatus sendInSlices(int socket, OutgoingResponse &r, std::uint64_t *sent,
                                    bool coalesce, std::uint64_t chunk, NextSlice nextSlice)
    {
        if (!coalesce || r.remaining == 0) {
            const auto status = sendHead(socket, r, sent, false);
            if (status != WriteStatus::Done)
                return status;
        }
        std::uint64_t budget = chunk;
        while (r.remaining > 0) {
            if (budget == 0)
                return WriteStatus::Yield;
            const std::optional<std::string_view> slice = nextSlice(std::min(r.remaining, budget));
            if (!slice || slice->empty())
                return WriteStatus::Error;
            const std::uint64_t before = *sent;
            const auto status = writeHeadAndBody(socket, r, slice->data(), slice->size(), sent);
            budget -= std::min<std::uint64_t>(budget, *sent - before);
            if (status != WriteStatus::Done)
                return status;
        }
        return WriteStatus::Done;
    }
};

// The transfer named `name` (the part of a mode after '+'), or nullptr if there is none.
std::unique_ptr<BodyTransfer> createBodyTransfer(const std::string &name,
                                                 const ServerOptions &options);

} // namespace servelab::server
