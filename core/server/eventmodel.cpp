// SPDX-License-Identifier: Apache-2.0
#include "eventmodel.h"

#include "blockingserver.h"
#include "epollserver.h"
#include "multiplexserver.h"
#include "pollerserver.h"
#include "qtserver.h"
#include "servermode.h"
#include "uringsupport.h"

#include "servelab_config.h"
#if HAVE_LIBURING
#include "uringserver.h"
#endif

namespace servelab::server {

namespace {

template<typename S>
std::unique_ptr<ThreadedServer> make(const ServerOptions &options)
{
    return std::make_unique<S>(options);
}

std::string whyNoUring()
{
    std::string reason;
    return uringAvailable(&reason) ? std::string() : "the uring model cannot run here: " + reason;
}

// In the order `servelab-cli modes` lists them.
const EventModel models[] = {
    {"epoll", "nginx, lighttpd, h2o: one non-blocking event loop per thread", nullptr, nullptr,
     nullptr, make<EpollServer>},
    {"poller", "Tomcat NIO and APR, grizzly: a poller hands ready connections to a worker pool",
     nullptr, nullptr, nullptr, make<PollerServer>, false, true},
    {"blocking",
     "Apache prefork/worker, Tomcat BIO, grizzly SimpleBlocking: a thread per "
     "connection from a bounded pool",
     nullptr, nullptr, nullptr, make<BlockingServer>, true, true},
    {"multiplex",
     "grizzly-sendfile EqualBlocking: writers take the active downloads in turn, "
     "the rest queue",
     nullptr, nullptr, nullptr, make<MultiplexServer>, false, true},
    {"uring", "io_uring: requests and completions on rings shared with the kernel", nullptr,
     nullptr, whyNoUring,
#if HAVE_LIBURING
     make<UringServer>
#else
     nullptr
#endif
    },
    {"qt", "QTcpServer and QTcpSocket in a Qt event loop: a framework baseline", "copy",
     "writes through QTcpSocket, which has no", nullptr, make<QtServer>, false, false,
     "the qt model serves plain HTTP only: QSslSocket would put Qt's TLS backend and its "
     "buffering between the file and the socket, so its figures would compare frameworks, not "
     "ways of serving (use epoll, poller, blocking, multiplex or uring over https)"},
};

} // namespace

std::span<const EventModel> eventModels()
{
    return models;
}

const EventModel *findEventModel(std::string_view name)
{
    for (const auto &m : models)
        if (name == m.name)
            return &m;
    return nullptr;
}

bool poolResizable(const std::string &mode)
{
    ServerMode parsed;
    if (!parseServerMode(mode, &parsed, nullptr))
        return false;
    const EventModel *model = findEventModel(parsed.model);
    return model && model->resizablePool;
}

std::string threadsFixedReason(const std::string &mode)
{
    return "threads cannot change while the server runs in mode " + mode +
           ": each of its threads owns its connections (the blocking, poller and multiplex "
           "pools grow and shrink)";
}

} // namespace servelab::server
