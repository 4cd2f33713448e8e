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
// so a killed ServeLab leaves no server behind; stop() asks with SIGTERM, then kills. Counters
// and tuning go over its control socket (`serve`'s third line says where).
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
    // Over the child's control channel (lab::ControlServer), each within 2 s:
    // its counters now (nothing when it does not answer);
    std::optional<server::ServerStats> stats();
    // a change while it serves (ServerTuning's name=value), refused with the child's reason;
    bool tune(const QStringList &assignments, QString *error);
    // what may change live, name=value, as it is now (empty when it does not answer).
    QStringList liveOptions();

private:
    std::optional<QByteArray> ask(const QByteArray &request, QString *error);

    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    QString m_controlPath;
};

} // namespace servelab::lab
