// SPDX-License-Identifier: Apache-2.0
#include "threadstate.h"

#include "metrics/clock.h"
#include "servermode.h"

namespace servelab::server {

namespace {
std::unique_ptr<OpenFileCache> ownCacheFor(const ServerShared &shared, const ServerOptions &o)
{
    if (!shared.fileCachePerThread || o.openFileCacheEntries <= 0)
        return nullptr;
    return std::make_unique<OpenFileCache>(shared.root, std::size_t(o.openFileCacheEntries),
                                           o.openFileCacheValidMs, false);
}

std::string transferName(const ServerOptions &options)
{
    ServerMode mode;
    parseServerMode(options.mode, &mode, nullptr);
    return mode.transfer;
}

std::unique_ptr<BodyTransfer> transferFor(const ServerOptions &options)
{
    return createBodyTransfer(transferName(options), options);
}

std::unique_ptr<TlsTransfer> tlsTransferFor(const ServerShared &shared, const ServerOptions &o)
{
    return shared.tls ? std::make_unique<TlsTransfer>(transferName(o), o) : nullptr;
}
} // namespace

std::int64_t monotonicMs()
{
    return metrics::monotonicMicros() / 1000;
}

ThreadState::ThreadState(const ServerShared &shared)
    : live(shared.live), seenGeneration(shared.live.generation()), options(shared.live.snapshot()),
      transfer(transferFor(options)),
      acceptGuard(shared.options.acceptStrategy, shared.limit, stats),
      ownFileCache(ownCacheFor(shared, options)),
      tlsTransfer(tlsTransferFor(shared, options)), context{shared.root,
                                                            *transfer,
                                                            stats,
                                                            options,
                                                            {},
                                                            {},
                                                            {},
                                                            monotonicMs(),
                                                            ownFileCache ? ownFileCache.get()
                                                                         : shared.fileCache}
{
    context.tls = shared.tls;
    context.tlsTransfer = tlsTransfer.get();
}

} // namespace servelab::server

namespace servelab::server {

void ThreadState::retune()
{
    seenGeneration = live.generation();
    options = live.snapshot();
    transfer->retune(options);
    if (tlsTransfer)
        tlsTransfer->retune(options);
    if (ownFileCache)
        ownFileCache->retune(std::size_t(options.openFileCacheEntries),
                             options.openFileCacheValidMs);
}

} // namespace servelab::server
