// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "threadedserver.h"

namespace servelab::server {

// The `epoll` event model (nginx style): N threads, each with its own epoll instance and
// connections, all watching one listening socket with EPOLLEXCLUSIVE so that a new connection
// wakes one thread, not all of them.
class EpollServer final : public ThreadedServer
{
public:
    using ThreadedServer::ThreadedServer;
    ~EpollServer() override { stop(); }

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
    bool fileCachePerThread() const override { return true; }
};

} // namespace servelab::server
