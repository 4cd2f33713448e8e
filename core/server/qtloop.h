// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"
#include "threadstate.h"
#include "worker.h"

#include <QtGlobal>

#include <future>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

class QEventLoop;

namespace servelab::server {

class QtConnection;

// One thread of the `qt` model: a QEventLoop, a QTcpServer on a dup() of the listening socket
// (accept errors such as EMFILE go through the AcceptGuard), the thread's QtConnections and a
// deadline scan on a QTimer.
class QtLoop final : public Worker
{
public:
    QtLoop(int listenFd, const ServerShared &shared);
    QtLoop(const QtLoop &) = delete;
    QtLoop &operator=(const QtLoop &) = delete;
    ~QtLoop() override;

    bool init(std::string *error) override;
    void run() override;
    bool waitReady(std::string *error) override;
    void requestStop() override;
    ServerStats stats() const override { return m_state.stats.snapshot(); }

    // Called by the thread's QTcpServer for each accepted socket.
    bool adopt(qintptr fd); // false: refused (and closed)

private:
    void finished(QtConnection *connection);
    void expire();

    int m_listenFd;
    os::UniqueFd m_listenCopy; // handed to the QTcpServer, which closes it
    ThreadState m_state;
    std::unordered_map<QtConnection *, std::unique_ptr<QtConnection>> m_connections;
    std::vector<std::unique_ptr<QtConnection>> m_finished; // destroyed from the loop, later
    std::mutex m_loopMutex;
    QEventLoop *m_loop = nullptr;
    bool m_stopping = false;
    std::promise<std::string> m_setUp; // empty once serving, else why not
    std::future<std::string> m_setUpResult = m_setUp.get_future();
};

} // namespace servelab::server
