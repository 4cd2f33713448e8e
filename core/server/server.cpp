// SPDX-License-Identifier: Apache-2.0
#include "server.h"

#include "eventmodel.h"
#include "servermode.h"
#include "serveroptions.h"
#include "threadedserver.h"

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
    // parseServerMode() lets through only the models this build has (a row with a factory).
    const EventModel *model = findEventModel(mode.model);
    if (!options.tls.empty() && model->noTls) {
        if (error)
            *error = model->noTls;
        return nullptr;
    }
    std::unique_ptr<ThreadedServer> server = model->create(options);
    if (!server->openRoot(error) || !server->openTls(mode.transfer, error))
        return nullptr;
    return server;
}

} // namespace servelab::server
