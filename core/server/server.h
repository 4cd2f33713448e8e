// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "serverstats.h"

#include <cstdint>
#include <memory>
#include <string>

namespace servelab::server {

struct ServerOptions;

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
};

// Validates options.mode and the other options, opens the root, and builds the server.
// Returns nullptr with *error set to one sentence when something is wrong.
std::unique_ptr<Server> createServer(const ServerOptions &options, std::string *error);

} // namespace servelab::server
