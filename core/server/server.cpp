// SPDX-License-Identifier: Apache-2.0
#include "server.h"

#include "blockingserver.h"
#include "epollserver.h"
#include "multiplexserver.h"
#include "pollerserver.h"
#include "qtserver.h"
#include "servermode.h"
#include "serveroptions.h"

#include "servelab_config.h"
#if HAVE_LIBURING
#include "uringserver.h"
#endif

#include <csignal>

namespace servelab::server {

std::unique_ptr<Server> createServer(const ServerOptions &options, std::string *error)
{
    ServerMode mode;
    if (!parseServerMode(options.mode, &mode, error))
        return nullptr;
    if (options.threads < 1 || options.threads > 1024) {
        if (error)
            *error = "--threads must be between 1 and 1024, not " + std::to_string(options.threads);
        return nullptr;
    }
    if (options.backlog < 1) {
        if (error)
            *error = "the listen backlog must be at least 1";
        return nullptr;
    }
    // sendfile() has no MSG_NOSIGNAL: a client that leaves mid-body would raise SIGPIPE and
    // kill the process. Every server ignores it, as nginx does; EPIPE is handled where it occurs.
    std::signal(SIGPIPE, SIG_IGN);
    std::unique_ptr<ThreadedServer> server;
    if (mode.model == "epoll")
        server = std::make_unique<EpollServer>(options);
    else if (mode.model == "poller")
        server = std::make_unique<PollerServer>(options);
    else if (mode.model == "blocking")
        server = std::make_unique<BlockingServer>(options);
    else if (mode.model == "multiplex")
        server = std::make_unique<MultiplexServer>(options);
    else if (mode.model == "qt")
        server = std::make_unique<QtServer>(options);
#if HAVE_LIBURING
    else if (mode.model == "uring")
        server = std::make_unique<UringServer>(options);
#endif
    if (!server) { // parseServerMode() lets through only what this build has
        if (error)
            *error = "server mode '" + options.mode + "' is not built in";
        return nullptr;
    }
    if (!server->openRoot(error))
        return nullptr;
    return server;
}

} // namespace servelab::server
