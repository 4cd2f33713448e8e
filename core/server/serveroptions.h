// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace servelab::server {

// What a server does when accept() fails with EMFILE/ENFILE (field-notes: a level-triggered
// listening socket stays readable, so doing nothing spins).
enum class Handoff
{
    Mutex,   // a deque under a mutex, a condition variable to wake a worker
    LockFree // moodycamel's BlockingConcurrentQueue (Debian's libconcurrentqueue-dev)
};

enum class AcceptStrategy
{
    ReserveFd, // close a reserved fd, accept-and-close the waiting connections, reopen it, pause
    Backoff,   // stop accepting for 100 ms (nginx)
    None,      // retry at once: reproduces the seed's flood (logs stay rate-limited)
};

struct ServerOptions
{
    std::string root;
    std::string mode = "epoll+sendfile";
    std::string host = "127.0.0.1";
    std::uint16_t port = 0; // 0: the kernel picks one; Server::port() tells which
    int threads = 1;
    int backlog = 511;
    // Below this size the body goes out with the header in one writev(): two segments would
    // meet Nagle and delayed ACK (40 ms). Tomcat's default.
    std::size_t sendfileThreshold = 48 * 1024;
    // One sendfile() call moves at most this much, so one fast connection cannot starve the
    // others of its thread (nginx sendfile_max_chunk).
    std::size_t sendfileChunk = 2 * 1024 * 1024;
    bool tcpNoDelay = true;
    // Send the head with MSG_MORE so it shares a segment with the body. Off shows the stall
    // that two small segments meet with Nagle and delayed ACK when TCP_NODELAY is off too.
    bool coalesceHeader = true;
    // sendfile: TCP_CORK from the head to the body's last byte (nginx's tcp_nopush), so that a
    // large body leaves in full segments. Off by default: here it made no difference under wrk
    // (1 MiB, -c8: 2,470 against 2,453 req/s, mean of 4 interleaved) and cost a third under
    // servelab-cli load, whose 256 KiB reads keep up (3,966 against 5,336, mean of 3).
    bool tcpNoPush = false;
    // TCP_DEFER_ACCEPT on the listener (nginx's `listen … deferred`): accept() is woken only once
    // a connection's first bytes are in, so the server finds its request there and does not go
    // back to sleep between the handshake and the request. A connection that sends nothing is
    // accepted after the header timeout and then times out as usual.
    bool deferAccept = false;
    // The copy transfer's read/write buffer (B): one pread and one send per B bytes. 64K was
    // the fastest here at 1 MiB (wrk -c8: 8K 0.83, 32K 2.7, 64K 3.2, 128K 1.4 GB/s; nginx's
    // sendfile off, 32K reads, 2.6): larger buffers meet a full socket more often, and what
    // did not go out is read again next turn (the buffer is the thread's, shared by its
    // connections). The seeds' 8K (Tomcat's) stays a --buffer away, and their presets say so.
    std::size_t bufferSize = 64 * 1024;

    // Timers (ms). The header deadline runs from the first byte of a request (from accept for
    // the first one) and is not reset by more bytes: that is what stops a slowloris.
    int keepAliveTimeoutMs = 5000;
    int headerTimeoutMs = 10000;
    int sendTimeoutMs = 60000; // without progress
    int lingerTimeoutMs = 2000;
    int maxRequestsPerConnection = 1000; // 0: unlimited
    // Open connections allowed at once, across threads; beyond it new ones are accepted and
    // closed at once. 0: derived from RLIMIT_NOFILE so each connection can also open its file
    // (two fds each); -1: unlimited, so the fd limit itself is what stops accept (EMFILE).
    int maxConnections = 0;
    // multiplex: downloads written at once, round-robin; the others wait in a queue
    // (grizzly-sendfile --concur-download-max).
    int maxDownloads = 1000;
    // poller: how the watcher hands ready connections to the pool (seed 004's question).
    Handoff handoff = Handoff::Mutex;
    AcceptStrategy acceptStrategy = AcceptStrategy::ReserveFd;
    // Files kept open per thread, by path (nginx open_file_cache); 0: open per request.
    int openFileCacheEntries = 0;
    int openFileCacheValidMs = 1000;      // trusted this long before the path is opened again
    std::uint64_t maxBodyBytes = 1 << 20; // a larger request body gets 413

    // https: empty for plain HTTP; "self-signed" (ECDSA P-256) or "self-signed-rsa" (RSA-2048),
    // generated once into tls::SelfSignedPair::defaultFolder(); or "CERT.pem,KEY.pem". Over
    // sendfile it takes kernel TLS, and a server where the kernel has none does not start.
    std::string tls;
    std::string tlsVersions = "1.2,1.3"; // tls::Protocols
    std::string tlsCiphers;
    std::string tlsGroups;
    // HTTP/2 beside HTTP/1.1: h2c for a client that starts with the preface (prior knowledge,
    // as h2load and curl --http2-prior-knowledge do), h2 over https when ALPN chooses it. Off:
    // the preface is an unknown method (405) and ALPN offers http/1.1 only.
    bool http2 = false;
    // What the server announces in its SETTINGS (RFC 9113 §6.5.2): streams a client may have
    // open at once, the window for what it sends, and the largest frame it may send.
    int h2MaxStreams = 128;
    int h2Window = 65535;
    int h2MaxFrame = 16384;
};

} // namespace servelab::server
