// SPDX-License-Identifier: Apache-2.0
#include "h2output.h"

#include "tls/tlsio.h"

#include <algorithm>
#include <cerrno>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace servelab::server {

namespace {
constexpr std::size_t gatherMax = 64;          // iovecs per sendmsg()
constexpr std::size_t coalesceMax = 64 * 1024; // frame bytes kept in one segment
constexpr std::size_t tlsWriteMax = 64 * 1024; // bytes per SSL_write: four full records
} // namespace

H2Output::Segment &H2Output::push()
{
    if (m_end == m_segments.size()) {
        if (m_first > 0 && m_first >= m_segments.size() / 2) {
            // More retired segments than live ones before them: the live ones move down and
            // the retired (their buffers) go to the end, to be reused.
            std::rotate(m_segments.begin(), m_segments.begin() + std::ptrdiff_t(m_first),
                        m_segments.begin() + std::ptrdiff_t(m_end));
            m_end -= m_first;
            m_first = 0;
        } else {
            m_segments.emplace_back();
        }
    }
    Segment &s = m_segments[m_end++];
    s.bytes.clear(); // its buffer stays
    s.data = nullptr;
    s.fd = -1;
    s.offset = 0;
    s.length = 0;
    s.done = 0;
    return s;
}

void H2Output::popFront()
{
    front().hold.reset(); // the stream's file goes as soon as its payload is out
    if (++m_first == m_end)
        m_first = m_end = 0;
}

std::string &H2Output::bytesFor(std::size_t length)
{
    if (empty() || back().fd >= 0 || back().data || back().bytes.size() + length > coalesceMax)
        return push().bytes;
    return back().bytes;
}

void H2Output::append(const void *data, std::size_t length)
{
    if (length == 0)
        return;
    bytesFor(length).append(static_cast<const char *>(data), length);
    m_queued += length;
}

bool H2Output::appendRead(int fd, off_t offset, std::size_t length)
{
    std::string &bytes = bytesFor(length);
    const std::size_t at = bytes.size();
    bytes.resize(at + length);
    std::size_t got = 0;
    while (got < length) {
        const ssize_t n = ::pread(fd, bytes.data() + at + got, length - got, offset + off_t(got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            bytes.resize(at);
            return false;
        }
        got += std::size_t(n);
    }
    m_queued += length;
    return true;
}

void H2Output::appendFile(int fd, off_t offset, std::size_t length,
                          std::shared_ptr<const void> hold)
{
    Segment &s = push();
    s.fd = fd;
    s.offset = offset;
    s.length = length;
    s.hold = std::move(hold);
    m_queued += length;
}

void H2Output::appendMapped(const char *data, std::size_t length, std::shared_ptr<const void> hold)
{
    Segment &s = push();
    s.data = data;
    s.length = length;
    s.hold = std::move(hold);
    m_queued += length;
}

void H2Output::advance(std::size_t bytes)
{
    m_queued -= bytes;
    while (bytes > 0) {
        Segment &first = front();
        const std::size_t left = first.size() - first.done;
        if (bytes < left) {
            first.done += bytes;
            return;
        }
        bytes -= left;
        popFront();
    }
}

WriteStatus H2Output::flush(int socket, SSL *ssl, std::uint64_t *sent)
{
    while (!empty()) {
        Segment &first = front();
        if (first.done == first.size()) { // a read that failed left it empty
            popFront();
            continue;
        }
        if (ssl) {
            const std::size_t n = std::min(first.bytes.size() - first.done, tlsWriteMax);
            const ssize_t wrote = tls::send(ssl, first.bytes.data() + first.done, n);
            if (wrote < 0)
                return (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::Again
                                                                 : WriteStatus::Error;
            *sent += std::uint64_t(wrote);
            advance(std::size_t(wrote));
            continue;
        }
        const WriteStatus status =
            first.fd >= 0 ? writeFile(socket, first, sent) : writeGathered(socket, sent);
        if (status != WriteStatus::Done)
            return status;
    }
    return WriteStatus::Done;
}

// The memory segments at the front, in one sendmsg(); MSG_MORE when a file payload follows, so
// that its frame header shares a segment with the payload's first bytes.
WriteStatus H2Output::writeGathered(int socket, std::uint64_t *sent)
{
    iovec iov[gatherMax];
    std::size_t count = 0;
    std::size_t total = 0;
    bool fileNext = false;
    for (std::size_t i = m_first; i < m_end; ++i) {
        const Segment &s = m_segments[i];
        if (s.fd >= 0) {
            fileNext = true;
            break;
        }
        if (count == gatherMax)
            break;
        const char *base = s.data ? s.data : s.bytes.data();
        iov[count].iov_base = const_cast<char *>(base + s.done);
        iov[count].iov_len = s.size() - s.done;
        total += iov[count].iov_len;
        ++count;
    }
    msghdr message{};
    message.msg_iov = iov;
    message.msg_iovlen = count;
    const ssize_t wrote = ::sendmsg(socket, &message, MSG_NOSIGNAL | (fileNext ? MSG_MORE : 0));
    if (wrote < 0) {
        if (errno == EINTR)
            return WriteStatus::Done; // the caller's loop tries again
        return (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::Again : WriteStatus::Error;
    }
    *sent += std::uint64_t(wrote);
    advance(std::size_t(wrote));
    return std::size_t(wrote) < total ? WriteStatus::Again : WriteStatus::Done;
}

WriteStatus H2Output::writeFile(int socket, Segment &segment, std::uint64_t *sent)
{
    off_t offset = segment.offset + off_t(segment.done);
    const std::size_t left = segment.length - segment.done;
    const ssize_t wrote = ::sendfile(socket, segment.fd, &offset, left);
    if (wrote < 0) {
        if (errno == EINTR)
            return WriteStatus::Done;
        return (errno == EAGAIN || errno == EWOULDBLOCK) ? WriteStatus::Again : WriteStatus::Error;
    }
    if (wrote == 0)
        return WriteStatus::Error; // the file shrank under us
    *sent += std::uint64_t(wrote);
    advance(std::size_t(wrote));
    return std::size_t(wrote) < left ? WriteStatus::Again : WriteStatus::Done;
}

} // namespace servelab::server
