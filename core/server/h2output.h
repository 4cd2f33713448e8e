// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bodytransfer.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

typedef struct ssl_st SSL;

namespace servelab::server {

// The bytes an HTTP/2 connection has framed and not yet written, in order: frame bytes from
// libnghttp2 (headers, settings, the 9-byte DATA headers) and DATA payloads that stay where they
// are until they go out — a range of the file (sendfile: no copy), or of its mapping (mmap: one
// writev with the frame headers). Copy, and anything over TLS, reads the payload into the frame
// bytes instead. Each payload keeps its stream's file alive (`hold`) until it is written, since
// libnghttp2 may close the stream as soon as its last frame is handed over.
class H2Output
{
public:
    void append(const void *data, std::size_t length);
    // Copy: the payload read into the frame bytes now (pread). False if the file failed.
    bool appendRead(int fd, off_t offset, std::size_t length);
    void appendFile(int fd, off_t offset, std::size_t length, std::shared_ptr<const void> hold);
    void appendMapped(const char *data, std::size_t length, std::shared_ptr<const void> hold);

    bool empty() const { return m_first == m_end; }
    std::size_t queued() const { return m_queued; }

    // Writes until the queue is empty (Done), the socket is full (Again) or it failed (Error);
    // *sent grows by what went out. `ssl`: through TLS (memory segments only there).
    WriteStatus flush(int socket, SSL *ssl, std::uint64_t *sent);

private:
    struct Segment
    {
        std::string bytes;          // frame bytes (copied payloads included)
        const char *data = nullptr; // a mapped payload
        int fd = -1;                // a file payload
        off_t offset = 0;
        std::size_t length = 0; // of the mapped or file payload
        std::size_t done = 0;   // written so far
        std::shared_ptr<const void> hold;
        std::size_t size() const { return fd >= 0 || data ? length : bytes.size(); }
    };
    WriteStatus writeGathered(int socket, std::uint64_t *sent);
    WriteStatus writeFile(int socket, Segment &segment, std::uint64_t *sent);
    void advance(std::size_t bytes);
    // The segment to fill next, and the one written first and its retirement. Segments are kept
    // once written, their strings' buffers with them: a connection that answers request after
    // request allocates none for its frame bytes once it has warmed up.
    Segment &push();
    Segment &front() { return m_segments[m_first]; }
    Segment &back() { return m_segments[m_end - 1]; }
    void popFront();
    // A new frame-bytes segment unless the last one has room for `length` more.
    std::string &bytesFor(std::size_t length);

    std::vector<Segment> m_segments; // live: [m_first, m_end); the rest are kept for reuse
    std::size_t m_first = 0;
    std::size_t m_end = 0;
    std::size_t m_queued = 0;
};

} // namespace servelab::server
