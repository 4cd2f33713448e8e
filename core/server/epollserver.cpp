#include "epollserver.h"

#include "epollloop.h"

namespace servelab::server {

std::vector<std::unique_ptr<Worker>> EpollServer::createWorkers()
{
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<EpollLoop>(m_listener.fd(), m_root, m_options, *m_limit));
    return workers;
}

} // namespace servelab::server
