// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientexchange.h"
#include "clientoptions.h"
#include "os/uniquefd.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

typedef struct nghttp2_session nghttp2_session;
typedef struct ssl_st SSL;

namespace servelab::client {

class H2Stream;
class RequestTarget;
class TlsClientContext;

// One client HTTP/2 connection and the request slots (H2Streams) that share it (h2load's -m):
// connect, TLS with ALPN h2 or prior knowledge over TCP, then libnghttp2's client session for
// the frames, HPACK and windows. Requests begun while the connection is not up wait for it;
// requests submitted between two wake-ups go out in one write (flush()). What the server does
// to the connection ends its streams: a GOAWAY sends the streams it did not take to a new
// connection (as a closed kept-alive HTTP/1.1 connection does), RST_STREAM and GOAWAY with an
// error end them with their own error kinds.
class H2ClientSession final : public EventTarget
{
public:
    // `dirty`: where the session puts itself when it has frames to write (the reactor's list).
    H2ClientSession(int epollFd, const RequestTarget &target, const ClientOptions &options,
                    std::span<char> scratch, TlsClientContext *tls,
                    std::vector<H2ClientSession *> &dirty);
    H2ClientSession(const H2ClientSession &) = delete;
    H2ClientSession &operator=(const H2ClientSession &) = delete;
    ~H2ClientSession() override;

    // One more slot of this connection.
    void attach(H2Stream &stream) { m_streams.push_back(&stream); }
    // H2Stream's side: a request begun (Pending, or Failed when the connection cannot even
    // be started), a busy stream given up, an idle one's wish to close the connection.
    ClientExchange::Outcome start(H2Stream &stream);
    void cancel(H2Stream &stream);
    void closeWhenIdle();

    void onEvent(unsigned events, std::vector<EndedExchange> &ended) override;
    // Writes what was submitted since the last wake-up, and reconnects for streams waiting.
    void flush(std::vector<EndedExchange> &ended);

    bool open() const { return bool(m_fd); }
    bool connecting() const
    {
        return m_state == State::Connecting || m_state == State::Handshaking;
    }
    std::uint64_t connectsMade() const { return m_connects; }
    int requestsOnConnection() const { return m_onConnection; }
    std::optional<std::uint64_t> expectedLength() const { return m_options.expectedBodyLength; }

private:
    enum class State
    {
        Closed,
        Connecting,
        Handshaking, // https
        Up
    };

    std::optional<ErrorKind> connect();
    void connected();
    void handshake();
    void up();
    void submit(H2Stream &stream);
    void readAll(bool hangUp);
    void writeAll();
    // Closes the connection once it is done (drained, or the session wants nothing more), and
    // starts a new one for the streams waiting.
    void settle();
    // The connection is lost: its streams end with `kind`, or go again on a new connection
    // when the server closed a kept-alive one before taking them. While connecting, the
    // waiting streams end too.
    void lost(ErrorKind kind);
    void closeSocket();
    void ended(H2Stream &stream, ClientExchange::Outcome outcome);
    void requeue(H2Stream &stream);
    void markDirty();
    int busyStreams() const;
    ssize_t write(const char *data, std::size_t length);
    ssize_t read(char *into, std::size_t most);

    friend struct H2ClientCallbacks; // libnghttp2's callbacks (h2clientsession.cpp)

    int m_epollFd;
    const RequestTarget &m_target;
    const ClientOptions &m_options;
    std::span<char> m_scratch;
    TlsClientContext *m_tls;
    std::vector<H2ClientSession *> &m_dirtyList;
    std::vector<H2Stream *> m_streams;             // the slots sharing this connection
    std::vector<EndedExchange> *m_ended = nullptr; // while handling an event or a flush

    os::UniqueFd m_fd;
    SSL *m_ssl = nullptr;
    bool m_tlsUp = false;
    State m_state = State::Closed;
    nghttp2_session *m_session = nullptr;
    std::string m_out; // frames not yet written
    std::size_t m_outSent = 0;
    bool m_dirty = false;
    bool m_draining = false; // no new streams: closed once the last one ends
    bool m_goaway = false;   // the server's GOAWAY came
    std::int32_t m_lastStreamId = 0;
    bool m_firstRead = true; // h2c: an HTTP/1.x answer to the preface means no HTTP/2
    std::uint64_t m_connects = 0;
    int m_onConnection = 0;     // streams begun on this connection
    int m_doneOnConnection = 0; // of them, answered
    std::int64_t m_tcpUpAt = 0;
};

} // namespace servelab::client
