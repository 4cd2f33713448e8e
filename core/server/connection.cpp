#include "connection.h"

#include "bodytransfer.h"
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
constexpr std::size_t readChunk = 16 * 1024;
}

Connection::Connection(int fd, LoopContext &context)
    : m_fd(fd), m_context(context), m_parser(context.limits)
{}

Connection::~Connection()
{
    ::close(m_fd);
}

Connection::Next Connection::onReadable()
{
    if (m_writing)
        return Next::Write;
    // Read until EAGAIN (edge-triggered), but never hold more than one maximal head plus a
    // chunk: past that the parser has already refused the request.
    const std::size_t cap = m_context.limits.maxHeadBytes + readChunk;
    while (!m_peerClosed && m_in.size() - m_inStart < cap) {
        const std::size_t used = m_in.size();
        m_in.resize(used + readChunk);
        const ssize_t n = ::recv(m_fd, m_in.data() + used, readChunk, 0);
        m_in.resize(used + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        if (n > 0)
            continue;
        if (n == 0)
            m_peerClosed = true;
        else if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
        else if (errno != EINTR)
            return Next::Close;
    }
    return process();
}

Connection::Next Connection::onWritable()
{
    if (!m_writing)
        return Next::Read;
    const Next next = writeResponse();
    if (next != Next::Read)
        return next;
    // Edge-triggered: bytes that came while we wrote raised no event we acted on. Look now.
    return onReadable();
}

void Connection::consume(std::size_t bytes)
{
    m_inStart += bytes;
    if (m_inStart == m_in.size()) {
        m_in.clear();
        m_inStart = 0;
    } else if (m_inStart > readChunk) {
        m_in.erase(0, m_inStart);
        m_inStart = 0;
    }
}

Connection::Next Connection::process()
{
    for (;;) {
        if (m_bodyToSkip > 0) {
            const auto skip = std::min<std::uint64_t>(m_bodyToSkip, m_in.size() - m_inStart);
            consume(static_cast<std::size_t>(skip));
            m_bodyToSkip -= skip;
            if (m_bodyToSkip > 0)
                return m_peerClosed ? Next::Close : Next::Read;
        }
        if (m_inStart == m_in.size())
            return m_peerClosed ? Next::Close : Next::Read;
        const auto status = m_parser.parse(std::string_view(m_in).substr(m_inStart));
        if (status == http::RequestParser::Status::NeedMore)
            return m_peerClosed ? Next::Close : Next::Read;
        if (status == http::RequestParser::Status::Error) {
            startError(m_parser.errorStatus(), false, false, false);
        } else {
            const http::Request request = m_parser.request();
            consume(m_parser.headLength());
            m_parser.reset();
            m_bodyToSkip = request.contentLength;
            startResponse(request);
        }
        const Next next = writeResponse();
        if (next != Next::Read)
            return next;
    }
}

// Returns Read once the response is out and the connection may go on.
Connection::Next Connection::writeResponse()
{
    std::uint64_t sent = 0;
    const WriteStatus status = m_context.transfer.write(m_fd, m_out, &sent);
    AtomicServerStats::bump(m_context.stats.bytesSent, sent);
    switch (status) {
    case WriteStatus::Again: return Next::Write;
    case WriteStatus::Yield: return Next::Yield;
    case WriteStatus::Error: return Next::Close;
    case WriteStatus::Done: break;
    }
    m_writing = false;
    m_out.clear();
    return m_closeAfterResponse ? Next::Close : Next::Read;
}

void Connection::startResponse(const http::Request &request)
{
    const bool headOnly = request.method == http::Method::Head;
    const bool http10 = request.versionMinor == 0;
    if (request.method == http::Method::Other)
        return startError(405, request.keepAlive, http10, false);
    const auto path = http::normalizedPath(request.target);
    if (!path)
        return startError(400, false, http10, headOnly);
    http::OpenedFile file = m_context.root.openFile(*path);
    if (file.status != 200)
        return startError(file.status, request.keepAlive, http10, headOnly);

    http::ResponseHead head;
    head.contentLength = file.size;
    head.contentType = file.contentType;
    head.lastModified = file.modified;
    head.keepAlive = request.keepAlive;
    head.http10 = http10;
    m_out.clear();
    http::appendResponseHead(m_out.head, head, m_context.date.now());
    m_out.remaining = headOnly ? 0 : file.size;
    m_out.file = std::move(file);
    m_closeAfterResponse = !request.keepAlive;
    m_writing = true;
    m_context.stats.countResponse(200);
}

void Connection::startError(int status, bool keepAlive, bool http10, bool headOnly)
{
    m_out.clear();
    m_out.head = http::errorResponse(status, keepAlive, http10, headOnly, m_context.date.now());
    m_closeAfterResponse = !keepAlive || http::statusClosesConnection(status);
    m_writing = true;
    m_context.stats.countResponse(status);
}

} // namespace servelab::server
