// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "server/serveroptions.h"
#include "server/serverstats.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QProcess;

namespace servelab::lab {

// A built-in server run as a separate `servelab-cli serve` process: its own fd table and
// RLIMIT_NOFILE (--fd-limit), its own crashes. The child dies with this process (PDEATHSIG),
// so a killed ServeLab leaves no server behind; stop() asks with SIGTERM, then kills.
class IsolatedServer
{
public:
    IsolatedServer();
    ~IsolatedServer();
    IsolatedServer(const IsolatedServer &) = delete;
    IsolatedServer &operator=(const IsolatedServer &) = delete;

    // The servelab-cli next to the running executable, or $SERVELAB_CLI.
    static QString cliPath();

    // `extra`: more `serve` flags, passed as they are.
    bool start(const server::ServerOptions &options, int fdLimit, QString *error,
               const QStringList &extra = {});
    void stop();
    quint16 port() const { return m_port; }
    qint64 pid() const;
    // The child's counters now: it prints them on SIGUSR1 (`serve`'s "stats ..." line). Nothing
    // when it does not answer within timeoutMs.
    std::optional<server::ServerStats> stats(int timeoutMs = 2000);

private:
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
};

} // namespace servelab::lab
