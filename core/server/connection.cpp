// SPDX-License-Identifier: Apache-2.0
#include "connection.h"

#include "bodytransfer.h"
#include "loopcontext.h"
#include "serverstats.h"

#include <algorithm>
#include <cerrno>
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
    // The first request's header deadline runs from accept (nginx client_header_timeout).
    setPhase(Phase::Idle, context.options.headerTimeoutMs);
}

Connection::~Connection()
{
    // Counted by the thread that closes it (the one whose context it holds now).
    if (m_phase == Phase::Writing)
        AtomicServerStats::bump(m_context->stats.downloadsFinished);
    AtomicServerStats::bump(m_context->stats.connectionsClosed);
    ::close(m_fd);
}

void Connection::setPhase(Phase phase, int timeoutMs)
{
    if (phase == Phase::Writing)
        AtomicServerStats::bump(m_context->stats.downloadsStarted);
    m_phase = phase;
    m_deadlineMs = m_context->nowMs + timeoutMs;
}

Connection::Next Connection::onReadable(bool hangUp)
{
    if (m_phase == Phase::Writing)
        return Next::Write;
    // Read until EAGAIN (edge-triggered), but never hold more than one maximal head plus a
    // chunk: past that the parser has already refused the request. A body is read in such
    // bufferfuls, each consumed before the next, until the socket is empty.
    const std::size_t cap = m_context->limits.maxHeadBytes + readChunk;
    for (;;) {
        while (!m_peerClosed && m_in.size() < cap) {
            const ssize_t n = ::recv(m_fd, m_in.prepare(readChunk), readChunk, 0);
            if (n > 0) {
                m_in.commit(static_cast<std::size_t>(n));
                if (m_phase == Phase::Lingering)
                    m_in.consume(m_in.size()); // discarded: we only wait for the client to finish
                // A short read emptied the socket: the next byte raises a new edge, so skip the
                // recv() that would only say EAGAIN (one syscall per request). Unless the peer
                // hung up: then read on to the EOF, whose edge has been spent already.
                if (static_cast<std::size_t>(n) < readChunk && !hangUp)
                    break;
                continue;
            }
            if (n == 0)
                m_peerClosed = true;
            else if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            else if (errno != EINTR)
                return Next::Close;
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
        return m_phase == Phase::Writing ? Next::Write : Next::Read;
    if (m_phase == Phase::Head || m_phase == Phase::Body) {
        // The slowloris case: answer 408 if it fits in the socket now, then close anyway.
        startError(408);
        std::uint64_t sent = 0;
        m_context->transfer.write(m_fd, m_response.out, &sent);
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
            if (m_phase == Phase::Idle)
                setPhase(Phase::Head, m_context->options.headerTimeoutMs);
            const auto status = m_parser.parse(m_in.data());
            if (status == http::RequestParser::Status::NeedMore)
                return m_peerClosed ? Next::Close : Next::Read;
            if (status == http::RequestParser::Status::Error) {
                startError(m_parser.errorStatus());
            } else {
                const http::Request &request = m_parser.request();
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
    const WriteStatus status = m_context->transfer.write(m_fd, m_response.out, &sent);
    AtomicServerStats::bump(m_context->stats.bytesSent, sent);
    if (sent > 0)
        m_deadlineMs = m_context->nowMs + m_context->options.sendTimeoutMs;
    switch (status) {
    case WriteStatus::Again: return Next::Write;
    case WriteStatus::Yield: return Next::Yield;
    case WriteStatus::Error: return Next::Close;
    case WriteStatus::Done: break;
    }
    return responseDone();
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
            ::shutdown(m_fd, SHUT_WR);
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

} // namespace servelab::server
