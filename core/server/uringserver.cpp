// SPDX-License-Identifier: Apache-2.0
#include "uringserver.h"

#include "uringloop.h"

namespace servelab::server {

std::vector<std::unique_ptr<Worker>> UringServer::createWorkers()
{
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<UringLoop>(m_listener.fd(), shared()));
    return workers;
}

} // namespace servelab::server
