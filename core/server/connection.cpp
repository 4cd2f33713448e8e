// SPDX-License-Identifier: Apache-2.0
#include "connection.h"

#include "bodytransfer.h"
#include "loopcontext.h"
#include "serverstats.h"
#include "tls/tlsio.h"
#include "tls/tlsservercontext.h"
#include "tlstransfer.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <sys/socket.h>
#include <unistd.h>

namespace servelab::server {

namespace {
constexpr std::size_t readChunk = 4096; // request heads are small; bodies are only drained
}

Connection::Connection(int fd, LoopContext &context)
    : m_fd(fd), m_context(&context), m_parser(context.limits),
      m_drain(context.options.maxBodyBytes), m_planner(context)
{
    // The first request's header deadline runs from accept (nginx client_header_timeout), and
    // over https the handshake is inside it: a client that stops mid-handshake is cut as a
    // slowloris is.
    setPhase(Phase::Idle, context.options.headerTimeoutMs);
    if (context.tls) {
        m_ssl = context.tls->accept(fd);
        m_phase = Phase::Handshake;
    }
}

Connection::~Connection()
{
    // Counted by the thread that closes it (the one whose context it holds now).
    if (m_phase == Phase::Writing)
        AtomicServerStats::bump(m_context->stats.downloadsFinished);
    AtomicServerStats::bump(m_context->stats.connectionsClosed);
    if (m_ssl) {
        // close_notify, so that the client knows the answer was whole and can resume the session
        // (one write, never waited for), unless the connection broke or never was TLS.
        if (m_phase != Phase::Handshake && !m_peerClosed)
            SSL_shutdown(m_ssl);
        ERR_clear_error();
        SSL_free(m_ssl);
    }
}

void Connection::setPhase(Phase phase, int timeoutMs)
{
    if (phase == Phase::Writing)
        AtomicServerStats::bump(m_context->stats.downloadsStarted);
    m_phase = phase;
    m_deadlineMs = m_context->nowMs + timeoutMs;
}

Connection::ReadEnd Connection::readEnd(ssize_t n)
{
    if (n == 0) {
        m_peerClosed = true;
        return ReadEnd::Stop;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return ReadEnd::Stop;
    return errno == EINTR ? ReadEnd::Retry : ReadEnd::Broken;
}

ssize_t Connection::receive(char *into, std::size_t most)
{
    return m_ssl ? tls::receive(m_ssl, into, most) : ::recv(m_fd.get(), into, most, 0);
}

WriteStatus Connection::send(std::uint64_t *sent)
{
    if (m_ssl)
        return m_context->tlsTransfer->write(m_ssl, m_response.out, sent);
    return m_context->transfer.write(m_fd.get(), m_response.out, sent);
}

void Connection::shutdownWrite()
{
    if (m_ssl) {
        SSL_shutdown(m_ssl);
        ERR_clear_error(); // SSL_get_error() reads the thread's queue: leave nothing in it
    }
    ::shutdown(m_fd.get(), SHUT_WR);
}

// https: the handshake, which goes on over as many wake-ups as it needs. What comes first must
// look like a TLS handshake record (22): plaintext sent to the TLS port is closed without a
// word (the peek is nginx's way), rather than answered with an alert the client cannot read.
Connection::Next Connection::handshake()
{
    const auto fail = [this] {
        AtomicServerStats::bump(m_context->stats.tlsFailed);
        ERR_clear_error();
        m_peerClosed = true; // nothing is said on the way out
        return Next::Close;
    };
    if (!m_ssl)
        return fail();
    if (SSL_in_before(m_ssl)) {
        unsigned char first = 0;
        const ssize_t n = ::recv(m_fd.get(), &first, 1, MSG_PEEK);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return Next::Read;
        if (n <= 0)
            return fail();
        if (first != 22) {
            // Read what came (a plain request, mostly), so that the close is a FIN and not
            // the RST that unread bytes would make.
            char discard[4096];
            for (int i = 0; i < 16 && ::recv(m_fd.get(), discard, sizeof discard, 0) > 0; ++i) {
            }
            return fail();
        }
    }
    const int result = SSL_do_handshake(m_ssl);
    if (result != 1) {
        switch (SSL_get_error(m_ssl, result)) {
        case SSL_ERROR_WANT_READ: return Next::Read;
        case SSL_ERROR_WANT_WRITE: return Next::Write;
        default: return fail();
        }
    }
    AtomicServerStats::bump(m_context->stats.tlsHandshakes);
    if (SSL_session_reused(m_ssl))
        AtomicServerStats::bump(m_context->stats.tlsResumed);
    if (m_context->tls->kernelTls()) {
        // Asked for and not given (a cipher the kernel lacks, say): closed, never served by
        // userspace TLS under the name of sendfile.
        if (!BIO_get_ktls_send(SSL_get_wbio(m_ssl))) {
            AtomicServerStats::bump(m_context->stats.tlsKernelMissed);
            m_peerClosed = true;
            return Next::Close;
        }
        AtomicServerStats::bump(m_context->stats.tlsKernel);
    }
    m_phase = Phase::Idle; // the header deadline still runs from accept
    if (m_context->options.http2) {
        const unsigned char *protocol = nullptr;
        unsigned int length = 0;
        SSL_get0_alpn_selected(m_ssl, &protocol, &length);
        if (length == 2 && protocol[0] == 'h' && protocol[1] == '2')
            return startHttp2();
    }
    // The request may have come with the client's last handshake message: read it now.
    return onReadable(true);
}

Connection::Next Connection::onReadable(bool hangUp)
{
    if (m_phase == Phase::Handshake)
        return handshake();
    if (m_h2)
        return http2Readable();
    if (m_phase == Phase::Writing)
        return Next::Write;
    // Read until EAGAIN (edge-triggered), but never hold more than one maximal head plus a
    // chunk: past that the parser has already refused the request. A body is read in such
    // bufferfuls, each consumed before the next, until the socket is empty.
    const std::size_t cap = m_context->limits.maxHeadBytes + readChunk;
    for (;;) {
        while (!m_peerClosed && m_in.size() < cap) {
            const ssize_t n = receive(m_in.prepare(readChunk), readChunk);
            if (n > 0) {
                m_in.commit(static_cast<std::size_t>(n));
                if (m_phase == Phase::Lingering)
                    m_in.consume(m_in.size()); // discarded: we only wait for the client to finish
                // A short read emptied the socket: the next byte raises a new edge, so skip the
                // recv() that would only say EAGAIN (one syscall per request). Unless the peer
                // hung up: then read on to the EOF, whose edge has been spent already. Over TLS
                // the library may hold more than it gave: read on to its "want read".
                if (static_cast<std::size_t>(n) < readChunk && !hangUp && !m_ssl)
                    break;
                continue;
            }
            const ReadEnd end = readEnd(n);
            if (end == ReadEnd::Broken)
                return Next::Close;
            if (end == ReadEnd::Stop)
                break;
        }
        if (m_phase == Phase::Lingering)
            return m_peerClosed ? Next::Close : Next::Read;
        const bool full = m_in.size() >= cap; // the socket may hold more: no new edge will say so
        const Next next = process();
        if (!(full && next == Next::Read && m_phase == Phase::Body))
            return next;
    }
}

Connection::Next Connection::onWritable()
{
    if (m_phase == Phase::Handshake)
        return handshake();
    if (m_h2) {
        const Next next = http2Write();
        return next == Next::Read ? http2Readable() : next; // what came while we wrote
    }
    if (m_phase != Phase::Writing)
        return Next::Read;
    const Next next = writeResponse();
    if (next != Next::Read)
        return next;
    // Edge-triggered: bytes that came while we wrote raised no event we acted on. Look now.
    return onReadable();
}

Connection::Next Connection::onTimer()
{
    if (m_context->nowMs < m_deadlineMs)
        return writing() ? Next::Write : Next::Read;
    if (m_h2) {
        // Idle past the keep-alive timeout, or no progress for the send timeout: GOAWAY (with
        // NO_ERROR, as nginx does) if it fits in the socket now, then close.
        m_h2->goAway();
        std::uint64_t sent = 0;
        m_h2->send(m_fd.get(), m_ssl, &sent);
        return Next::Close;
    }
    if (m_phase == Phase::Handshake) {
        AtomicServerStats::bump(m_context->stats.tlsFailed);
        m_peerClosed = true; // cut, without a word
        return Next::Close;
    }
    if (m_phase == Phase::Head || m_phase == Phase::Body) {
        // The slowloris case: answer 408 if it fits in the socket now, then close anyway.
        startError(408);
        std::uint64_t sent = 0;
        send(&sent);
    }
    return Next::Close;
}

void Connection::consume(std::size_t bytes)
{
    m_in.consume(bytes);
}

// A request with a body is answered once its framing has been read to the end (RFC 9112 §6.3,
// §7.1): a body whose chunks are broken gets 400 and the connection closes, whatever the
// request was, so the server never answers a request it has not framed (a refused POST with a
// malformed chunk included). Returns false while more is to come.
bool Connection::readBody()
{
    std::size_t used = 0;
    const auto status = m_drain.feed(m_in.data(), &used);
    consume(used);
    if (status == http::RequestBodyDrain::Status::NeedMore)
        return false;
    if (status == http::RequestBodyDrain::Status::Error)
        startError(m_drain.tooLarge() ? 413 : 400);
    else
        startResponse(m_parser.request());
    m_parser.reset();
    return true;
}

Connection::Next Connection::process()
{
    for (;;) {
        if (m_phase == Phase::Body) {
            if (!readBody())
                return m_peerClosed ? Next::Close : Next::Read;
        } else {
            if (m_in.empty())
                return m_peerClosed ? Next::Close : Next::Read;
            if (m_fresh && m_context->options.http2 && !m_ssl) {
                bool whole = false;
                if (H2Session::startsPreface(m_in.data(), &whole)) {
                    if (whole)
                        return startHttp2();
                    return m_peerClosed ? Next::Close : Next::Read;
                }
            }
            if (m_phase == Phase::Idle)
                setPhase(Phase::Head, m_context->options.headerTimeoutMs);
            const auto status = m_parser.parse(m_in.data());
            if (status == http::RequestParser::Status::NeedMore)
                return m_peerClosed ? Next::Close : Next::Read;
            if (status == http::RequestParser::Status::Error) {
                startError(m_parser.errorStatus());
            } else {
                const http::Request &request = m_parser.request();
                m_fresh = false;
                consume(m_parser.headLength());
                m_drain.start(request);
                // The parser keeps the request until it is answered. A body over the limit
                // is not read at all: it is refused at once (413) and the connection closes.
                if (m_drain.pending() && request.contentLength <= m_context->options.maxBodyBytes) {
                    setPhase(Phase::Body, m_context->options.headerTimeoutMs);
                    continue;
                }
                startResponse(request);
                m_parser.reset();
            }
        }
        if (m_context->deferBodies && m_response.out.remaining > 0)
            return Next::Write;
        const Next next = writeResponse();
        if (next != Next::Read)
            return next;
        if (m_phase == Phase::Lingering)
            return Next::Read;
    }
}

// Returns Read once the response is out and the connection may go on.
Connection::Next Connection::writeResponse()
{
    std::uint64_t sent = 0;
    const WriteStatus status = send(&sent);
    if (const auto next = wrote(status, sent))
        return *next;
    return responseDone();
}

// What a write says about the connection: counted, the send deadline renewed on progress, and
// what to wait for unless it is Done (nullopt).
std::optional<Connection::Next> Connection::wrote(WriteStatus status, std::uint64_t sent)
{
    AtomicServerStats::bump(m_context->stats.bytesSent, sent);
    if (sent > 0)
        m_deadlineMs = m_context->nowMs + m_context->options.sendTimeoutMs;
    switch (status) {
    case WriteStatus::Again: return Next::Write;
    case WriteStatus::Yield: return Next::Yield;
    case WriteStatus::Error: return Next::Close;
    case WriteStatus::Done: break;
    }
    return std::nullopt;
}

Connection::Next Connection::responseDone()
{
    AtomicServerStats::bump(m_context->stats.downloadsFinished);
    m_phase = Phase::Idle; // no longer writing, whatever comes next
    m_response.out.clear();
    const bool unread = !m_in.empty() || m_drain.pending();
    if (m_response.closeAfter) {
        // Closing with unread input makes the kernel send RST, which can destroy the response
        // still in flight to the client. Half-close and read until the client is done instead.
        if ((m_response.lingerAfter || unread) && !m_peerClosed) {
            shutdownWrite();
            m_in.clear();
            setPhase(Phase::Lingering, m_context->options.lingerTimeoutMs);
            return Next::Read;
        }
        return Next::Close;
    }
    // A body still unread here was refused unread (413), and that response closes.
    setPhase(Phase::Idle, m_context->options.keepAliveTimeoutMs);
    if (m_in.empty())
        m_in.clear(); // an idle keep-alive connection holds no buffer
    return Next::Read;
}

void Connection::startResponse(const http::Request &request)
{
    m_planner.plan(request, &m_response);
    setPhase(Phase::Writing, m_context->options.sendTimeoutMs);
}

void Connection::startError(int status)
{
    m_planner.planError(status, false, false, false, &m_response);
    setPhase(Phase::Writing, m_context->options.sendTimeoutMs);
}

// From here on the connection is HTTP/2's: what was read so far (the preface, and over TLS
// perhaps more) goes to the session first.
Connection::Next Connection::startHttp2()
{
    m_fresh = false;
    m_phase = Phase::Http2;
    m_deadlineMs = m_context->nowMs + m_context->options.keepAliveTimeoutMs;
    m_h2 = std::make_unique<H2Session>(*m_context, m_planner, m_ssl != nullptr);
    const std::string_view read = m_in.data();
    const bool ok = m_h2->receive(read.data(), read.size());
    m_in.clear();
    if (!ok) {
        http2Write(); // the GOAWAY it earned, if it fits
        return Next::Close;
    }
    return http2Readable();
}

// Reads to EAGAIN (edge-triggered) and feeds each bufferful to the session, then writes what it
// framed in answer.
Connection::Next Connection::http2Readable()
{
    bool progress = false;
    while (!m_peerClosed) {
        // The buffer is only scratch here: the session takes every byte it is given.
        char *into = m_in.prepare(readChunk * 4);
        const ssize_t n = receive(into, readChunk * 4);
        if (n > 0) {
            progress = true;
            if (!m_h2->receive(into, std::size_t(n))) {
                http2Write();
                return Next::Close;
            }
            continue;
        }
        const ReadEnd end = readEnd(n);
        if (end == ReadEnd::Broken)
            return Next::Close;
        if (end == ReadEnd::Stop)
            break;
    }
    if (progress)
        m_deadlineMs = m_context->nowMs + (m_h2->busy() ? m_context->options.sendTimeoutMs
                                                        : m_context->options.keepAliveTimeoutMs);
    if (m_peerClosed)
        return Next::Close;
    return http2Write();
}

Connection::Next Connection::http2Write()
{
    std::uint64_t sent = 0;
    const WriteStatus status = m_h2->send(m_fd.get(), m_ssl, &sent);
    if (const auto next = wrote(status, sent))
        return *next;
    if (m_h2->finished())
        return Next::Close;
    if (!m_h2->busy())
        m_deadlineMs = m_context->nowMs + m_context->options.keepAliveTimeoutMs;
    return Next::Read;
}

} // namespace servelab::server
