// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"
#include "h2output.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>

typedef struct nghttp2_session nghttp2_session;
typedef struct ssl_st SSL;

namespace servelab::server {

struct LoopContext;
class ResponsePlanner;

// The HTTP/2 side of a Connection (RFC 9113), from the client's preface on: libnghttp2's server
// session reads the frames and keeps the streams, windows and HPACK state; each request is
// answered by the same ResponsePlanner as over HTTP/1.1, and its body is framed here and written
// by H2Output with the mode's transfer — sendfile from the file, mmap from its mapping, copy
// (and anything over TLS) through a read. Protocol errors are libnghttp2's to answer (GOAWAY or
// RST_STREAM with the code RFC 9113 gives); the connection then closes once that is out.
class H2Session
{
public:
    // `tls`: the connection is https (h2 by ALPN), so payloads are copied into TLS records.
    H2Session(LoopContext &context, ResponsePlanner &planner, bool tls);
    H2Session(const H2Session &) = delete;
    H2Session &operator=(const H2Session &) = delete;
    ~H2Session();

    // The preface's beginning: bytes a client with prior knowledge (h2c) starts with. `whole`
    // says whether all 24 of them are there; false from both when it is not one.
    static bool startsPreface(std::string_view bytes, bool *whole);

    void setContext(LoopContext &context) { m_context = &context; }
    // Bytes from the peer, preface included. False: the session is over (an error it answered).
    bool receive(const char *data, std::size_t length);
    // Frames what is ready and writes it. Done when nothing is left to write now.
    WriteStatus send(int socket, SSL *ssl, std::uint64_t *sent);
    // Nothing more to read or write: close.
    bool finished() const;
    bool pendingOutput() const { return !m_out.empty(); }
    // Streams still open (requests not yet answered in full).
    bool busy() const { return !m_streams.empty(); }
    // A GOAWAY with NO_ERROR for the idle timeout or the server's stop; sent by the next send().
    void goAway();

    struct Stream; // one request and its response (h2session.cpp)

private:
    static H2Session &of(void *user);
    void respond(Stream &stream);
    bool submitSettings();
    void countStall();

    LoopContext *m_context;
    ResponsePlanner &m_planner;
    bool m_tls;
    enum class Body
    {
        Copy,
        Mmap,
        Sendfile
    } m_body = Body::Copy;
    nghttp2_session *m_session = nullptr;
    std::unordered_map<std::int32_t, std::shared_ptr<Stream>> m_streams;
    H2Output m_out;
    bool m_goingAway = false;
    bool m_stalled = false;
};

} // namespace servelab::server
