// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "errorkind.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace servelab::client {

struct PreparedRequest;

// What a reactor slot carries, one request at a time, and what the load models read of it: an
// HTTP/1.1 connection (ClientConnection) or one stream of a shared HTTP/2 connection
// (H2Stream). Times are µs, monotonic.
class ClientExchange
{
public:
    struct Outcome
    {
        enum Type
        {
            Pending,
            Completed,
            Failed,
            Retry // internal: the server had closed the kept-alive connection; a new one is made
        } type = Pending;
        ErrorKind error = ErrorKind::ParseError; // when Failed
        // The error for LoadResult::countRequest(): none when Completed.
        std::optional<ErrorKind> failure() const
        {
            return type == Completed ? std::nullopt : std::optional<ErrorKind>(error);
        }
    };

    ClientExchange() = default;
    ClientExchange(const ClientExchange &) = delete;
    ClientExchange &operator=(const ClientExchange &) = delete;
    virtual ~ClientExchange() = default;

    // Starts a request at `now`; `request` replaces the one sent last (null: that one again).
    virtual Outcome begin(std::int64_t now, const PreparedRequest *request = nullptr) = 0;
    // Gives up what is in flight (a timeout, the run's end) or, idle, closes the connection
    // (the client's realism knobs): an HTTP/2 stream is reset, its connection closed once its
    // other streams are done.
    virtual void disconnect() = 0;
    // Whether the connection it goes over is open.
    virtual bool open() const = 0;
    virtual bool busy() const = 0;
    virtual bool connecting() const = 0;
    virtual int status() const = 0;
    // Connections made (HTTP/2: counted by the connection, not its streams).
    virtual std::uint64_t connectsMade() const = 0;
    // Requests begun on the current connection (1 for the first).
    virtual int requestsOnConnection() const = 0;

    std::int64_t startedAt() const { return m_startedAt; }
    // With ClientOptions::connectionTimes (as ab keeps them): when the connection was up (the
    // start, for a kept-alive one), when the request was written, when the answer began.
    std::int64_t connectedAt() const { return m_connectedAt; }
    std::int64_t sentAt() const { return m_sentAt; }
    std::int64_t firstByteAt() const { return m_firstByteAt; }
    // Bytes read for this request (HTTP/2: its frames, headers included) and its body's.
    std::uint64_t bytesRead() const { return m_bytesRead; }
    std::uint64_t bodyBytes() const { return m_bodyBytes; }
    // Where its owner keeps it (the reactor's slot).
    void setSlot(std::size_t slot) { m_slot = slot; }
    std::size_t slot() const { return m_slot; }

protected:
    // A whole answer's verdict: its status, and its body against the size expected.
    static Outcome judged(int status, std::uint64_t bodyBytes,
                          std::optional<std::uint64_t> expected);

    std::size_t m_slot = 0;
    std::int64_t m_startedAt = 0;
    std::int64_t m_connectedAt = 0;
    std::int64_t m_sentAt = 0;
    std::int64_t m_firstByteAt = 0;
    std::uint64_t m_bytesRead = 0;
    std::uint64_t m_bodyBytes = 0;
};

// A request that ended, in the slot that carried it.
struct EndedExchange
{
    std::size_t slot = 0;
    ClientExchange::Outcome outcome;
};

// What an epoll event's data points to: a connection, which says which of its requests the
// event ended (an HTTP/2 connection may end many at once).
class EventTarget
{
public:
    virtual ~EventTarget() = default;
    virtual void onEvent(unsigned events, std::vector<EndedExchange> &ended) = 0;
};

} // namespace servelab::client
