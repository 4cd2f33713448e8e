#pragma once

#include "http/httpdate.h"
#include "http/requestparser.h"

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
    http::ParserLimits limits;
    http::DateCache date;
};

} // namespace servelab::server
