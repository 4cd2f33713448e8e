#include "threadstate.h"

#include "metrics/clock.h"
#include "servermode.h"

namespace servelab::server {

namespace {
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

ThreadState::ThreadState(const http::DocumentRoot &root, const ServerOptions &options,
                         ConnectionLimit &limit)
    : transfer(transferFor(options)), acceptGuard(options.acceptStrategy, limit, stats),
      context{root,
              *transfer,
              stats,
              options,
              {},
              {},
              {},
              monotonicMs(),
              options.openFileCacheEntries > 0
                  ? std::make_unique<OpenFileCache>(root, std::size_t(options.openFileCacheEntries),
                                                    options.openFileCacheValidMs)
                  : nullptr}
{}

} // namespace servelab::server
