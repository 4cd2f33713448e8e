#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace servelab::server {

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
};

} // namespace servelab::server
