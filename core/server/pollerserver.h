// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "threadedserver.h"

namespace servelab::server {

class PollerShared;

// The `poller` event model (Coyote NIO/APR): one thread accepts and watches every idle
// connection with epoll (EPOLLONESHOT); a ready connection is handed to a pool of `threads`
// workers, which run it until it would wait again and then give it back to the poller.
class PollerServer final : public ThreadedServer
{
public:
    explicit PollerServer(const ServerOptions &options);
    ~PollerServer() override;

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
    std::uint64_t queuedNow() const override;
    std::unique_ptr<Worker> createPoolWorker() override;
    void retirePoolWorkers(int count) override;

private:
    std::shared_ptr<PollerShared> m_shared;
    int m_poolSize = 0; // workers not retired (under ThreadedServer's lifecycle lock)
};

} // namespace servelab::server
