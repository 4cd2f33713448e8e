// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "thinktime.h"
#include "tlsclientoptions.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace servelab::client {

class SampleSink;

// One path of a URL mix and its share of the requests.
struct WeightedPath
{
    std::string path;
    double weight = 1;
};

// What every client model shares: the target, the connections, and the realism knobs.

struct ClientOptions
{
    std::string host = "127.0.0.1"; // a name or a numeric address
    std::uint16_t port = 80;
    std::string path = "/";
    std::uint64_t requests = 1;  // ab -n
    int concurrency = 1;         // ab -c
    bool keepAlive = false;      // ab -k
    bool http10 = false;         // send HTTP/1.0 requests, as ab does (keep-alive then asked for)
    int timeoutMs = 30000;       // connect, and each request once sent (ab -s)
    std::int64_t deadlineMs = 0; // the whole run stops here; 0: no deadline (ab -t)
    // Bytes per recv(). ab reads 8 KiB at a time and is then the bottleneck for large files on
    // loopback. 64 KiB outruns wrk: 1 MiB -c8 from epoll+sendfile, 4.3-6.4 GB/s against wrk's
    // 3.1-4.0 at half its CPU per request. 256 KiB (the earlier default) got 1.5-3.2 GB/s from
    // the same server, whose CPU per response rose 2-4x with no more system calls: the larger
    // copy leaves the cache, and more of the loopback receive path runs on the server's core
    // (perf: tcp_write_xmit, tcp_data_queue in its softirq). 32 KiB starts to cost the client
    // a read per segment (notes on issue 40).
    std::size_t readBufferBytes = 64 * 1024;
    // Connect and read as ab does (its apr_pollset loop): connect() again once writable and the
    // interest swapped for EPOLLIN, level-triggered, one recv() per wake-up, a response the
    // server closes read to its EOF. With 8 KiB reads that is an epoll_wait() per 8 KiB, which
    // makes ab the bottleneck for large files on loopback; this reproduces ab's figures where
    // the default measures the server. The connect matters at -c 1: ab's request comes later
    // after the handshake, so a server more often accepts before it and sleeps once more.
    bool abReads = false;
    static constexpr std::size_t abReadBytes = 8 * 1024; // ab's reads, with abReads
    // ab's "Length" check, done right: a body of another size is a wrong_length error. Applies
    // to a mix too (set it only when every path of the mix has that length).
    std::optional<std::uint64_t> expectedBodyLength;
    // Every 200 answer's body is compared with the file its path names under this directory
    // (the one the server serves): other bytes are wrong_content, another size wrong_length.
    // Works with a mix. Empty: bodies are counted, not compared.
    std::string verifyRoot;
    // ab's "Connection Times" (connect, processing, waiting): two more clock readings per
    // request, so only the closed model asks for them.
    bool connectionTimes = false;
    // The header lines a request carries beside Host. ab sends User-Agent and Accept, wrk none:
    // the closed model asks for ab's so that the server parses what it parses under ab; the
    // others send wrk's 45-byte request, so that both tools cost the server the same.
    bool abHeaders = false;
    // Where each client thread publishes a ClientSample every 100 ms; null: no samples.
    SampleSink *samples = nullptr;

    // Realism (seed 002: "connections being closed sometimes, and non zero keepalive times
    // between requests"), for every model:
    int requestsPerConnection = 0; // close a kept-alive connection after k requests; 0: never
    double closeProbability = 0;   // and after each response with this probability
    // closed and duration: a kept-alive connection waits this long before its next request
    // (ramp has its own think time; rate follows its schedule).
    ThinkTime keepAliveThink;
    // Requests spread over these paths by weight instead of `path` (a mix of file sizes, or
    // several files of one size).
    std::vector<WeightedPath> mix;

    // https (every model): the handshake policy, versions and ciphers, the certificate check.
    TlsClientOptions tls;

    // HTTP/2 (every model): h2c with prior knowledge over http (as h2load and curl
    // --http2-prior-knowledge), h2 by ALPN over https. `concurrency` is then connections, each
    // carrying `streams` requests at once (h2load -c and -m), and its connection always kept.
    bool http2 = false;
    int streams = 1;
    // The receive window the client gives each stream and the connection (SETTINGS and
    // WINDOW_UPDATE): h2load's default, 2^30 - 1, so that flow control does not limit a run
    // unless asked to.
    std::uint32_t h2Window = (1u << 30) - 1;

    // Requests in flight at once: connections, times streams with HTTP/2.
    int requestSlots() const { return concurrency * (http2 ? streams : 1); }
    int streamsPerConnection() const { return http2 ? streams : 1; }
};

} // namespace servelab::client
