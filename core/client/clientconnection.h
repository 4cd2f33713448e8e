// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "errorkind.h"
#include "http/chunkeddecoder.h"
#include "os/uniquefd.h"
#include "responseparser.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/types.h>

typedef struct ssl_st SSL;

namespace servelab::client {

struct PreparedRequest;
class TlsClientContext;

// One client socket and the request on it: connect (non-blocking), send, receive and frame the
// response (Content-Length, chunked, or to the end of the connection). The load model owns the
// epoll set and decides what to do with each outcome. Bodies are counted, not kept: they are
// read through the thread's scratch buffer, and compared with the expected bytes when the
// request has them.
class ClientConnection
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

    ClientConnection(int epollFd, const sockaddr_storage &address, socklen_t addressLength,
                     const PreparedRequest &request, const ClientOptions &options,
                     std::span<char> scratch, TlsClientContext *tls = nullptr);
    ClientConnection(const ClientConnection &) = delete;
    ClientConnection &operator=(const ClientConnection &) = delete;
    ~ClientConnection();

    // Starts a request at `now` (µs), on the open connection if there is one; `request`
    // replaces the one sent last (null: send that one again). When a
    // kept-alive connection turns out closed by the server, the request goes on a new one:
    // the outcome is never Retry.
    Outcome begin(std::int64_t now, const PreparedRequest *request = nullptr);
    Outcome onEvent(unsigned events);
    void disconnect();

    bool open() const { return bool(m_fd); }
    bool busy() const { return m_state != State::Idle; }
    bool connecting() const { return m_state == State::Connecting; }
    std::int64_t startedAt() const { return m_startedAt; }
    // With ClientOptions::connectionTimes (µs, as ab keeps them): when the connection was up
    // (the start, for a kept-alive one), when the request was written, when the answer began.
    std::int64_t connectedAt() const { return m_connectedAt; }
    std::int64_t sentAt() const { return m_sentAt; }
    std::int64_t firstByteAt() const { return m_firstByteAt; }
    int status() const { return m_parser.status(); }
    std::uint64_t bytesRead() const { return m_bytesRead; }
    std::uint64_t bodyBytes() const { return m_bodyBytes; } // decoded, for a chunked body
    // Whether the connection can carry the next request (both sides agreed to keep it).
    bool reusable() const { return m_fd && m_state == State::Idle; }
    std::uint64_t connectsMade() const { return m_connects; }
    // Requests begun on the current connection (1 for the first).
    int requestsOnConnection() const { return m_onConnection; }
    // Where its owner keeps it (the reactor's slot), found again from an epoll event.
    void setSlot(std::size_t slot) { m_slot = slot; }
    std::size_t slot() const { return m_slot; }

private:
    enum class State
    {
        Idle,
        Connecting,
        Handshaking, // https
        Sending,
        Receiving
    };

    Outcome connect();
    Outcome connectAsAb();
    Outcome finishConnectAsAb();
    Outcome connectedAsAb();
    Outcome retried(Outcome outcome); // a Retry becomes the same request on a new connection
    Outcome handleEvent(unsigned events);
    void resetExchange();
    Outcome connected(); // TCP is up: the handshake (https) or the request
    Outcome handshake();
    Outcome send();
    Outcome receive();
    // send() and recv(), or SSL_write() and SSL_read(), with their results (-1 and errno).
    ssize_t write(const char *data, std::size_t length);
    ssize_t read(char *into, std::size_t most);
    bool oneReadPerWake() const;
    void watchWritable(bool out);
    Outcome consumeBody(std::string_view bytes, bool eof);
    Outcome consumeChunked(std::string_view bytes, bool eof);
    bool bodyMatches(std::string_view data) const;
    Outcome complete();
    Outcome failed(ErrorKind kind);

    int m_epollFd;
    std::size_t m_slot = 0;
    const sockaddr_storage &m_address;
    socklen_t m_addressLength;
    const PreparedRequest *m_request;
    const ClientOptions &m_options;
    std::span<char> m_scratch; // shared by the connections of one thread
    os::UniqueFd m_fd;
    State m_state = State::Idle;
    bool m_reused = false;
    bool m_watchingOut = false; // EPOLLOUT in the interest set (level-triggered reads only)
    bool m_hangUp = false;      // the event being handled reported the peer's FIN or an error
    bool m_readable = false;    // an event since begin() said there is something to read
    std::size_t m_sent = 0;
    std::string m_head;
    ResponseParser m_parser;
    bool m_headDone = false;
    http::ChunkedDecoder m_chunks;
    std::int64_t m_startedAt = 0;
    std::int64_t m_connectedAt = 0;
    std::int64_t m_sentAt = 0;
    std::int64_t m_firstByteAt = 0;
    std::int64_t m_tcpUpAt = 0; // https: when the handshake began
    std::uint64_t m_bytesRead = 0;
    std::uint64_t m_bodyBytes = 0;
    std::uint64_t m_connects = 0;
    int m_onConnection = 0;
    TlsClientContext *m_tls = nullptr; // https; null for http
    SSL *m_ssl = nullptr;
    bool m_tlsUp = false; // the handshake finished: close_notify is owed at close
};

} // namespace servelab::client
