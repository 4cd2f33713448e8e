#pragma once

#include "http/httpdate.h"
#include "http/requestparser.h"
#include "serveroptions.h"

#include <cstdint>

namespace servelab::http {
class DocumentRoot;
}

namespace servelab::server {

class BodyTransfer;
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
    std::int64_t nowMs = 0; // the loop's clock (CLOCK_MONOTONIC), updated once per wake-up
};

} // namespace servelab::server
