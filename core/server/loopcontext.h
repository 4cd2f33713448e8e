// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "http/httpdate.h"
#include "http/requestparser.h"
#include "serveroptions.h"

#include "openfilecache.h"

#include <cstdint>
#include <memory>

namespace servelab::http {
class DocumentRoot;
}

namespace servelab::tls {
class TlsServerContext;
}

namespace servelab::server {

class BodyTransfer;
class TlsTransfer;
struct AtomicServerStats;

// What the connections of one server thread share. Owned by that thread: no locks.
struct LoopContext
{
    const http::DocumentRoot &root;
    BodyTransfer &transfer;
    AtomicServerStats &stats;
    const ServerOptions &options;
    http::ParserLimits limits;
    http::DateCache date;
    http::DateCache lastModified; // files served in a row tend to share their mtime
    std::int64_t nowMs = 0;       // the loop's clock (CLOCK_MONOTONIC), updated once per wake-up
    OpenFileCache *fileCache = nullptr; // this thread's or the server's; null when off
    // A response with a body is only prepared, not started: onReadable() returns Write and
    // the model decides when its bytes go out (multiplex queues downloads).
    bool deferBodies = false;
    // https: the server's TLS context and this thread's transfer over it; null for plain HTTP.
    const tls::TlsServerContext *tls = nullptr;
    TlsTransfer *tlsTransfer = nullptr;
};

} // namespace servelab::server
