// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "acceptguard.h"
#include "bodytransfer.h"
#include "liveoptions.h"
#include "loopcontext.h"
#include "serverstats.h"
#include "tlstransfer.h"

#include <memory>

namespace servelab::server {

// What every thread of one server shares, handed to each worker.
struct ServerShared
{
    const http::DocumentRoot &root;
    const ServerOptions &options; // as started: what cannot change while the server runs
    const LiveOptions &live;      // as tuned since
    ConnectionLimit &limit;
    OpenFileCache *fileCache; // the shared one; null when the cache is off or per thread
    bool fileCachePerThread;  // each thread keeps its own (the model's choice)
    const tls::TlsServerContext *tls = nullptr; // https; null for plain HTTP
};

std::int64_t monotonicMs();

// Everything one server thread owns, whatever the event model: its counters, its body transfer
// (with scratch buffers), its accept guard and the context its connections run in.
struct ThreadState
{
    explicit ThreadState(const ServerShared &shared);
    ThreadState(const ThreadState &) = delete;
    ThreadState &operator=(const ThreadState &) = delete;

    // Once per wake-up, before the thread's connections run: the loop's clock, and the options
    // again when they were tuned since the last wake-up.
    void wake()
    {
        context.nowMs = monotonicMs();
        if (live.generation() != seenGeneration)
            retune();
    }

    const LiveOptions &live;
    std::uint64_t seenGeneration;
    ServerOptions options; // this thread's copy of the live options: context.options
    AtomicServerStats stats;
    std::unique_ptr<BodyTransfer> transfer;
    AcceptGuard acceptGuard;
    std::unique_ptr<OpenFileCache> ownFileCache; // with ServerShared::fileCachePerThread
    std::unique_ptr<TlsTransfer> tlsTransfer;    // with ServerShared::tls
    LoopContext context;

private:
    void retune();
};

// Every model checks its connections' deadlines by a scan this often: O(n) four times a second
// is cheaper than keeping a timer structure ordered on every request.
inline constexpr std::int64_t deadlineScanMs = 250;

} // namespace servelab::server
