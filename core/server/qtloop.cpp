// SPDX-License-Identifier: Apache-2.0
#include "qtloop.h"

#include "qtconnection.h"
#include "serveroptions.h"

#include <QEventLoop>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcQtModel, "servelab.server.qt")

namespace servelab::server {

namespace {

// QTcpServer hands each accepted descriptor to the loop instead of queueing a QTcpSocket.
class AdoptingTcpServer final : public QTcpServer
{
public:
    explicit AdoptingTcpServer(QtLoop &loop) : m_loop(loop) {}

protected:
    void incomingConnection(qintptr fd) override
    {
        // Refused at the connection limit: stop accepting for a moment, as every model does.
        if (!m_loop.adopt(fd) && !m_paused) {
            m_paused = true;
            pauseAccepting();
            QTimer::singleShot(AcceptGuard::refusalPause(), this, [this] {
                m_paused = false;
                resumeAccepting();
            });
        }
    }

private:
    QtLoop &m_loop;
    bool m_paused = false;
};

} // namespace

QtLoop::QtLoop(int listenFd, const ServerShared &shared) : m_listenFd(listenFd), m_state(shared) {}

QtLoop::~QtLoop() = default;

bool QtLoop::init(std::string *error)
{
    m_listenCopy.reset(fcntl(m_listenFd, F_DUPFD_CLOEXEC, 0));
    if (!m_listenCopy || !m_state.acceptGuard.init()) {
        if (error)
            *error = std::string("cannot set up the qt loop: ") + std::strerror(errno);
        return false;
    }
    return true;
}

void QtLoop::requestStop()
{
    std::lock_guard lock(m_loopMutex);
    m_stopping = true;
    if (m_loop)
        QMetaObject::invokeMethod(m_loop, &QEventLoop::quit, Qt::QueuedConnection);
}

bool QtLoop::waitReady(std::string *error)
{
    const std::string why = m_setUpResult.get();
    if (!why.empty() && error)
        *error = why;
    return why.empty();
}

void QtLoop::run()
{
    QEventLoop loop; // this thread's event dispatcher comes to life here
    {
        std::lock_guard lock(m_loopMutex);
        if (m_stopping) {
            m_setUp.set_value("stopped before it started");
            return;
        }
        m_loop = &loop;
    }
    {
        AdoptingTcpServer server(*this);
        if (!server.setSocketDescriptor(m_listenCopy.get())) {
            m_setUp.set_value("QTcpServer refused the listening socket: " +
                              server.errorString().toStdString());
            std::lock_guard lock(m_loopMutex);
            m_loop = nullptr;
            return;
        }
        m_listenCopy.release(); // the QTcpServer owns it now
        QObject::connect(&server, &QTcpServer::acceptError, &server, [&server, this] {
            // EMFILE and its kin: QTcpServer has paused; the strategy says for how long.
            const auto pause = m_state.acceptGuard.onExhausted(m_listenFd);
            QTimer::singleShot(pause, &server, [&server] { server.resumeAccepting(); });
        });
        QTimer scan;
        QObject::connect(&scan, &QTimer::timeout, &scan, [this] { expire(); });
        scan.start(int(deadlineScanMs));
        m_setUp.set_value({});
        loop.exec();
        std::lock_guard lock(m_loopMutex);
        m_loop = nullptr;
    }
    for (std::size_t i = 0; i < m_connections.size(); ++i)
        m_state.acceptGuard.released();
    m_connections.clear();
    m_finished.clear();
}

bool QtLoop::adopt(qintptr fd)
{
    if (!m_state.acceptGuard.adopt(int(fd), m_state.context.options.tcpNoDelay))
        return false;
    m_state.wake();
    auto connection = std::make_unique<QtConnection>(fd, m_state.context,
                                                     [this](QtConnection *c) { finished(c); });
    m_connections.emplace(connection.get(), std::move(connection));
    return true;
}

void QtLoop::finished(QtConnection *connection)
{
    const auto found = m_connections.find(connection);
    if (found == m_connections.end())
        return;
    // Called from the connection's own signal handler: destroy it once control is back here.
    if (m_finished.empty() && m_loop)
        QTimer::singleShot(0, m_loop, [this] { m_finished.clear(); });
    m_finished.push_back(std::move(found->second));
    m_connections.erase(found);
    m_state.acceptGuard.released();
}

void QtLoop::expire()
{
    m_state.wake();
    std::vector<QtConnection *> due;
    for (const auto &[connection, owned] : m_connections)
        if (connection->deadlineMs() <= m_state.context.nowMs)
            due.push_back(connection);
    for (QtConnection *connection : due)
        connection->onTimer();
}

} // namespace servelab::server
