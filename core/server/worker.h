// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "serverstats.h"

#include <string>

namespace servelab::server {

// One thread's share of a threaded server (an event loop, a pooled blocking worker, a poller).
class Worker
{
public:
    virtual ~Worker() = default;
    virtual bool init(std::string *error) = 0;
    // After run() was started on its thread: blocks until the worker is serving, or returns
    // false with *error when it could not set up what only its own thread may create.
    virtual bool waitReady(std::string * /*error*/) { return true; }
    virtual void run() = 0;         // until requestStop(); closes what it owns before returning
    virtual void requestStop() = 0; // from any thread
    virtual ServerStats stats() const = 0;
};

} // namespace servelab::server
