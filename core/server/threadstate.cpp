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

ThreadState::ThreadState(const ServerShared &shared)
    : transfer(transferFor(shared.options)),
      acceptGuard(shared.options.acceptStrategy, shared.limit, stats),
      context{shared.root, *transfer, stats,         shared.options,  {},
              {},          {},        monotonicMs(), shared.fileCache}
{}

} // namespace servelab::server
