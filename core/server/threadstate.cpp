// SPDX-License-Identifier: Apache-2.0
#include "threadstate.h"

#include "metrics/clock.h"
#include "servermode.h"

namespace servelab::server {

namespace {
std::unique_ptr<OpenFileCache> ownCacheFor(const ServerShared &shared)
{
    const auto &o = shared.options;
    if (!shared.fileCachePerThread || o.openFileCacheEntries <= 0)
        return nullptr;
    return std::make_unique<OpenFileCache>(shared.root, std::size_t(o.openFileCacheEntries),
                                           o.openFileCacheValidMs, false);
}

std::unique_ptr<BodyTransfer> transferFor(const ServerOptions &options)
{
    ServerMode mode;
    parseServerMode(options.mode, &mode, nullptr);
    return createBodyTransfer(mode.transfer, options);
}
} // namespace

std::int64_t monotonicMs()
{
    return metrics::monotonicMicros() / 1000;
}

ThreadState::ThreadState(const ServerShared &shared)
    : transfer(transferFor(shared.options)),
      acceptGuard(shared.options.acceptStrategy, shared.limit, stats),
      ownFileCache(ownCacheFor(shared)),
      context{shared.root,
              *transfer,
              stats,
              shared.options,
              {},
              {},
              {},
              monotonicMs(),
              ownFileCache ? ownFileCache.get() : shared.fileCache}
{}

} // namespace servelab::server
