// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"
#include "h2session.h"
#include "http/requestbodydrain.h"
#include "http/requestparser.h"
#include "os/uniquefd.h"
#include "readbuffer.h"
#include "responseplanner.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

typedef struct ssl_st SSL;

namespace servelab::server {

struct LoopContext;

// The HTTP/1.1 state machine of one accepted socket, independent of the event model: the
// model calls onReadable()/onWritable()/onTimer() and acts on what they return. Reads stop
// while a response is being written, so a pipelining client gets back-pressure, not a growing
// buffer. Every phase has a deadline (LoopContext::options), checked by onTimer(). With
// --http2, a connection that starts with the HTTP/2 preface (or chose h2 by ALPN) is handed to
// an H2Session for the rest of its life, behind the same three calls.
class Connection
{
public:
    enum class Next
    {
        Read,  // wait until the socket is readable
        Write, // wait until the socket is writable
        Yield, // runnable again at once, after the thread's other connections
        Close, // close the socket and forget the connection
    };

    Connection(int fd, LoopContext &context);
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;
    ~Connection();

    int fd() const { return m_fd.get(); }
    // Models that move a connection between threads (poller) hand it the current thread's
    // context before each turn.
    void setContext(LoopContext &context)
    {
        m_context = &context;
        m_planner.setContext(context);
        if (m_h2)
            m_h2->setContext(context);
    }
    bool writing() const { return m_phase == Phase::Writing || (m_h2 && m_h2->pendingOutput()); }
    std::int64_t deadlineMs() const { return m_deadlineMs; }

    // hangUp: the event model saw the peer close its side (EPOLLRDHUP) with this readiness.
    Next onReadable(bool hangUp = true);
    Next onWritable();
    // Called by the event model once the deadline has passed.
    Next onTimer();

private:
    enum class Phase
    {
        Handshake, // https: the TLS handshake, under the header deadline from accept
        Idle,      // between requests (keep-alive) or just accepted: no byte of a request yet
        Head,      // part of a request head has arrived
        Writing,   // a response is going out
        Body,      // reading the body of a request before answering it
        Lingering, // answered with an error and half-closed: reading until EOF, then close
        Http2,     // the H2Session has it
    };

    Next handshake();
    // recv() or, over TLS, SSL_read(), with recv()'s results (-1 and errno EAGAIN to wait).
    ssize_t receive(char *into, std::size_t most);
    // What a receive() that gave no bytes (`n` 0 or -1) means: stop reading (the peer's EOF,
    // noted, or EAGAIN), try again (EINTR), or the connection is broken.
    enum class ReadEnd
    {
        Stop,
        Retry,
        Broken
    };
    ReadEnd readEnd(ssize_t n);
    WriteStatus send(std::uint64_t *sent);
    void shutdownWrite(); // TLS's close_notify first, then the FIN
    Next process();
    Next writeResponse();
    std::optional<Next> wrote(WriteStatus status, std::uint64_t sent);
    Next responseDone();
    bool readBody();
    void startResponse(const http::Request &request);
    void startError(int status); // a request that could not be parsed, or a timeout
    void consume(std::size_t bytes);
    void setPhase(Phase phase, int timeoutMs);
    Next startHttp2();
    Next http2Readable();
    Next http2Write();

    os::UniqueFd m_fd; // closed after the TLS session is ended, in ~Connection
    LoopContext *m_context;
    ReadBuffer m_in;
    http::RequestParser m_parser;
    Phase m_phase = Phase::Idle;
    std::int64_t m_deadlineMs = 0;
    http::RequestBodyDrain m_drain;
    ResponsePlanner m_planner;
    ResponsePlan m_response;
    bool m_peerClosed = false;
    SSL *m_ssl = nullptr; // https
    bool m_fresh = true;  // no request yet: the HTTP/2 preface may come
    std::unique_ptr<H2Session> m_h2;
};

} // namespace servelab::server
