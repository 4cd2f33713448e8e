#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace servelab::client {

// Settings of the `closed` model (ab semantics). Later models extend this.
class SampleSink;

struct ClientOptions
{
    std::string host = "127.0.0.1"; // a name or a numeric address
    std::uint16_t port = 80;
    std::string path = "/";
    std::uint64_t requests = 1;  // ab -n
    int concurrency = 1;         // ab -c
    bool keepAlive = false;      // ab -k
    int timeoutMs = 30000;       // connect, and each request once sent (ab -s)
    std::int64_t deadlineMs = 0; // the whole run stops here; 0: no deadline (ab -t)
    // Bytes per recv(). ab reads 8 KiB at a time and is then the bottleneck for large files on
    // loopback; 256 KiB lets the client outrun the server it measures.
    std::size_t readBufferBytes = 256 * 1024;
    // ab's "Length" check, done right: a body of another size is a wrong_length error.
    std::optional<std::uint64_t> expectedBodyLength;
    // Where each client thread publishes a ClientSample every 100 ms; null: no samples.
    SampleSink *samples = nullptr;
};

} // namespace servelab::client
