// SPDX-License-Identifier: Apache-2.0
#include "epollserver.h"

#include "epollloop.h"

namespace servelab::server {

std::vector<std::unique_ptr<Worker>> EpollServer::createWorkers()
{
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<EpollLoop>(m_listener.fd(), shared()));
    return workers;
}

} // namespace servelab::server
