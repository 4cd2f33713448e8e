// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "threadedserver.h"

namespace servelab::server {

// The `uring` event model: N threads, each with its own io_uring (see UringLoop).
class UringServer final : public ThreadedServer
{
public:
    using ThreadedServer::ThreadedServer;
    ~UringServer() override { stop(); }

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
    bool fileCachePerThread() const override { return true; }
};

} // namespace servelab::server
