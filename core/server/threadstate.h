#pragma once

#include "acceptguard.h"
#include "bodytransfer.h"
#include "loopcontext.h"
#include "serverstats.h"

#include <memory>

namespace servelab::server {

// Everything one server thread owns, whatever the event model: its counters, its body transfer
// (with scratch buffers), its accept guard and the context its connections run in.
struct ThreadState
{
    ThreadState(const http::DocumentRoot &root, const ServerOptions &options, ConnectionLimit &limit);
    ThreadState(const ThreadState &) = delete;
    ThreadState &operator=(const ThreadState &) = delete;

    AtomicServerStats stats;
    std::unique_ptr<BodyTransfer> transfer;
    AcceptGuard acceptGuard;
    LoopContext context;
};

std::int64_t monotonicMs();

} // namespace servelab::server
