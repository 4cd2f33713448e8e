// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "serveroptions.h"
#include "serverstats.h"

#include <cstdint>
#include <memory>
#include <string>

namespace servelab::server {

// A built-in static file server. start() binds and spawns the worker threads; stop() may be
// called from any thread, is idempotent, and returns once every worker has joined and every
// connection and file is closed.
class Server
{
public:
    virtual ~Server() = default;
    virtual bool start(std::string *error) = 0;
    virtual void stop() = 0;
    virtual std::uint16_t port() const = 0;
    virtual ServerStats stats() const = 0;
    // The connection limit in force once started (< 0: unlimited).
    virtual int maxConnections() const = 0;
    // The options now: as started, then as tuned.
    virtual ServerOptions options() const = 0;
    // Takes `next` while the server runs, from each thread's next wake-up on: the pool's
    // threads (grown and shrunk), the connection limit, the open-file cache's size and every
    // option a connection reads as it goes. Which options may change live is the caller's
    // table (lab::ServerOptionTable's `fixed`); this refuses only what its model cannot do,
    // with one sentence, and then changes nothing.
    virtual bool tune(const ServerOptions &next, std::string *error) = 0;
};

// Validates options.mode and the other options, opens the root, and builds the server.
// Returns nullptr with *error set to one sentence when something is wrong.
std::unique_ptr<Server> createServer(const ServerOptions &options, std::string *error);

} // namespace servelab::server
