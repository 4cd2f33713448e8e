// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "threadedserver.h"

namespace servelab::server {

class MultiplexShared;

// The `multiplex` event model (grizzly-sendfile EqualBlocking): one thread accepts and reads
// requests; each file download goes to a DownloadScheduler, where `threads` writer threads
// take the active ones in turn and send one chunk (--chunk) each, blocking on a full socket
// as grizzly's writers do. At most `maxDownloads` are active; the rest wait in a queue.
class MultiplexServer final : public ThreadedServer
{
public:
    explicit MultiplexServer(const ServerOptions &options);
    ~MultiplexServer() override;

protected:
    std::vector<std::unique_ptr<Worker>> createWorkers() override;
    std::uint64_t queuedNow() const override;
    std::unique_ptr<Worker> createPoolWorker() override;
    void retirePoolWorkers(int count) override;
    void tuned(const ServerOptions &next) override;

private:
    std::shared_ptr<MultiplexShared> m_shared;
};

} // namespace servelab::server
