// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientexchange.h"
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
class ClientConnection final : public ClientExchange, public EventTarget
{
public:
    ClientConnection(int epollFd, const sockaddr_storage &address, socklen_t addressLength,
                     const PreparedRequest &request, const ClientOptions &options,
                     std::span<char> scratch, TlsClientContext *tls = nullptr);
    ~ClientConnection() override;

    // Starts a request at `now` (µs), on the open connection if there is one; `request`
    // replaces the one sent last (null: send that one again). When a
    // kept-alive connection turns out closed by the server, the request goes on a new one:
    // the outcome is never Retry.
    Outcome begin(std::int64_t now, const PreparedRequest *request = nullptr) override;
    // What the event did to the request: still Pending, or its end.
    Outcome onEvent(unsigned events);
    void onEvent(unsigned events, std::vector<EndedExchange> &ended) override;
    void disconnect() override;

    bool open() const override { return bool(m_fd); }
    bool busy() const override { return m_state != State::Idle; }
    bool connecting() const override { return m_state == State::Connecting; }
    int status() const override { return m_parser.status(); }
    // Whether the connection can carry the next request (both sides agreed to keep it).
    bool reusable() const { return m_fd && m_state == State::Idle; }
    std::uint64_t connectsMade() const override { return m_connects; }
    int requestsOnConnection() const override { return m_onConnection; }

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
    std::int64_t m_tcpUpAt = 0; // https: when the handshake began
    std::uint64_t m_connects = 0;
    int m_onConnection = 0;
    TlsClientContext *m_tls = nullptr; // https; null for http
    SSL *m_ssl = nullptr;
    bool m_tlsUp = false; // the handshake finished: close_notify is owed at close
};

} // namespace servelab::client
