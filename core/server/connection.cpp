#include "connection.h"

#include "bodytransfer.h"
#include "http/byterange.h"
#include "http/documentroot.h"
#include "http/responsewriter.h"
#include "http/uripath.h"
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
      m_chunked(context.options.maxBodyBytes)
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
    // chunk: past that the parser has already refused the request.
    const std::size_t cap = m_context->limits.maxHeadBytes + readChunk;
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
    return process();
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
    if (m_phase == Phase::Head) {
        // The slowloris case: answer 408 if it fits in the socket now, then close anyway.
        startError(408, false, false, false);
        std::uint64_t sent = 0;
        m_context->transfer.write(m_fd, m_out, &sent);
    }
    return Next::Close;
}

void Connection::consume(std::size_t bytes)
{
    m_in.consume(bytes);
}

// Returns true once the body of the answered request is fully drained.
bool Connection::drainBody()
{
    const std::string_view available = m_in.data();
    if (m_bodyChunked) {
        std::size_t used = 0;
        const auto status = m_chunked.feed(available, &used);
        consume(used);
        if (status == http::ChunkedDecoder::Status::Error) {
            m_peerClosed = true; // framing is lost: nothing more can be read safely
            return false;
        }
        if (status == http::ChunkedDecoder::Status::NeedMore)
            return false;
        m_bodyChunked = false;
        return true;
    }
    const auto skip = std::min<std::uint64_t>(m_bodyToSkip, available.size());
    consume(static_cast<std::size_t>(skip));
    m_bodyToSkip -= skip;
    return m_bodyToSkip == 0;
}

Connection::Next Connection::process()
{
    for (;;) {
        if (m_phase == Phase::Body) {
            if (!drainBody())
                return m_peerClosed ? Next::Close : Next::Read;
            setPhase(Phase::Idle, m_context->options.keepAliveTimeoutMs);
        }
        if (m_in.empty())
            return m_peerClosed ? Next::Close : Next::Read;
        if (m_phase == Phase::Idle)
            setPhase(Phase::Head, m_context->options.headerTimeoutMs);
        const auto status = m_parser.parse(m_in.data());
        if (status == http::RequestParser::Status::NeedMore)
            return m_peerClosed ? Next::Close : Next::Read;
        if (status == http::RequestParser::Status::Error) {
            startError(m_parser.errorStatus(), false, false, false);
        } else {
            const http::Request request = m_parser.request();
            consume(m_parser.headLength());
            m_parser.reset();
            m_bodyToSkip = request.chunked ? 0 : request.contentLength;
            m_bodyChunked = request.chunked;
            m_chunked = http::ChunkedDecoder(m_context->options.maxBodyBytes);
            if (request.contentLength > m_context->options.maxBodyBytes)
                startError(413, false, request.versionMinor == 0, false);
            else
                startResponse(request);
        }
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
    const WriteStatus status = m_context->transfer.write(m_fd, m_out, &sent);
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
    m_out.clear();
    const bool unread = !m_in.empty() || m_bodyToSkip > 0 || m_bodyChunked;
    if (m_closeAfterResponse) {
        // Closing with unread input makes the kernel send RST, which can destroy the response
        // still in flight to the client. Half-close and read until the client is done instead.
        if ((m_lingerAfterResponse || unread) && !m_peerClosed) {
            ::shutdown(m_fd, SHUT_WR);
            m_in.clear();
            setPhase(Phase::Lingering, m_context->options.lingerTimeoutMs);
            return Next::Read;
        }
        return Next::Close;
    }
    if (m_bodyToSkip > 0 || m_bodyChunked)
        setPhase(Phase::Body, m_context->options.headerTimeoutMs);
    else
        setPhase(Phase::Idle, m_context->options.keepAliveTimeoutMs);
    if (m_in.empty())
        m_in.clear(); // an idle keep-alive connection holds no buffer
    return Next::Read;
}

void Connection::startResponse(const http::Request &request)
{
    const bool headOnly = request.method == http::Method::Head;
    const bool http10 = request.versionMinor == 0;
    const int max = m_context->options.maxRequestsPerConnection;
    const bool keepAlive = request.keepAlive && (max == 0 || ++m_requests < max);
    if (request.method == http::Method::Other)
        return startError(405, keepAlive, http10, false);
    const auto path = http::normalizedPath(request.target);
    if (!path)
        return startError(400, false, http10, headOnly);
    http::OpenedFile file = m_context->fileCache
                                ? m_context->fileCache->open(*path, m_context->nowMs)
                                : m_context->root.openFile(*path);
    if (file.status != 200)
        return startError(file.status, keepAlive, http10, headOnly);
    http::Request effective = request;
    effective.keepAlive = keepAlive;
    startFile(effective, std::move(file));
}

void Connection::startFile(const http::Request &request, http::OpenedFile file)
{
    const bool headOnly = request.method == http::Method::Head;
    http::ResponseHead head;
    head.contentType = file.contentType;
    head.lastModified = file.modified;
    head.lastModifiedText = m_context->lastModified.format(file.modified);
    head.keepAlive = request.keepAlive;
    head.http10 = request.versionMinor == 0;
    head.acceptRanges = true;
    head.contentLength = file.size;
    head.completeLength = file.size;
    std::uint64_t offset = 0;
    if (request.ifModifiedSince >= 0 && file.modified <= request.ifModifiedSince) {
        head.status = 304; // RFC 9110 §13.1.3
        head.omitContentLength = true;
        head.contentLength = 0;
    } else if (!request.range.empty()) {
        const auto range = http::resolveByteRange(request.range, file.size);
        if (range.kind == http::ByteRange::Partial) {
            head.status = 206;
            head.range = http::ResponseHead::Range::Partial;
            head.rangeFirst = range.first;
            head.rangeLast = range.last;
            head.contentLength = range.length();
            offset = range.first;
        } else if (range.kind == http::ByteRange::Unsatisfiable) {
            head.status = 416;
            head.range = http::ResponseHead::Range::Unsatisfiable;
            head.contentLength = 0;
            head.contentType = {};
        }
    }
    m_out.clear();
    http::appendResponseHead(m_out.head, head, m_context->date.now());
    m_out.offset = static_cast<off_t>(offset);
    m_out.remaining =
        (headOnly || head.status == 304 || head.status == 416) ? 0 : head.contentLength;
    m_out.file = std::move(file);
    m_closeAfterResponse = !request.keepAlive;
    m_lingerAfterResponse = false;
    setPhase(Phase::Writing, m_context->options.sendTimeoutMs);
    m_context->stats.countResponse(head.status);
}

void Connection::startError(int status, bool keepAlive, bool http10, bool headOnly)
{
    m_out.clear();
    m_out.head = http::errorResponse(status, keepAlive, http10, headOnly, m_context->date.now());
    m_closeAfterResponse = !keepAlive || http::statusClosesConnection(status);
    m_lingerAfterResponse = http::statusClosesConnection(status);
    setPhase(Phase::Writing, m_context->options.sendTimeoutMs);
    m_context->stats.countResponse(status);
}

} // namespace servelab::server
