// SPDX-License-Identifier: Apache-2.0
#include "qtserver.h"

#include "qtloop.h"

#include <QCoreApplication>

namespace servelab::server {

bool QtServer::start(std::string *error)
{
    if (!QCoreApplication::instance()) {
        if (error)
            *error = "the qt model runs Qt event loops and needs a QCoreApplication; "
                     "create one first or use another model";
        return false;
    }
    if (m_options.maxConnections < 0) {
        // Seen with Qt 6.4: once accept() has said EAGAIN, the listening socket engine keeps
        // reporting that as its error, so EMFILE no longer pauses QTcpServer and it retries
        // accept() in a busy loop. A connection limit keeps accept() clear of EMFILE.
        if (error)
            *error = "the qt model needs a connection limit (QTcpServer spins on EMFILE once it "
                     "has seen EAGAIN): use --max-connections auto or a number";
        return false;
    }
    return ThreadedServer::start(error);
}

std::vector<std::unique_ptr<Worker>> QtServer::createWorkers()
{
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 0; i < m_options.threads; ++i)
        workers.push_back(std::make_unique<QtLoop>(m_listener.fd(), shared()));
    return workers;
}

} // namespace servelab::server
