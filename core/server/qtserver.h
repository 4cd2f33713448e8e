// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "threadedserver.h"

namespace servelab::server {

// The `qt` event model, a framework baseline: N threads, each running a Qt event loop with its
// own QTcpServer on (a duplicate of) the shared listening socket, and QTcpSocket connections
// (QtConnection). Needs a QCoreApplication; copy is its only transfer.
class QtServer final : public ThreadedServer
{
public:
    using ThreadedServer::ThreadedServer;
    ~QtServer() override { stop(); }

    bool start(std::string *error) override;

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
};

} // namespace servelab::server
