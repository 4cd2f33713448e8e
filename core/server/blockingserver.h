// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"
#include "threadedserver.h"

namespace servelab::server {

struct Handover;

// The `blocking` event model (Coyote BIO, grizzly-sendfile SimpleBlocking): an acceptor thread
// and a bounded pool of `threads` threads, each serving one connection to its end. When every
// thread is busy the acceptor stops accepting, and new connections wait in the listen backlog.
class BlockingServer final : public ThreadedServer
{
public:
    using ThreadedServer::ThreadedServer;
    ~BlockingServer() override;

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
    std::uint64_t queuedNow() const override;
    std::unique_ptr<Worker> createPoolWorker() override;
    void retirePoolWorkers(int count) override;

private:
    os::UniqueFd m_stopFd; // shared by the pool: written once, stays readable
    std::shared_ptr<Handover> m_handover;
};

} // namespace servelab::server
