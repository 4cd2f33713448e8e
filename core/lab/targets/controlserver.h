// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "os/uniquefd.h"

#include <QByteArray>
#include <QString>

#include <thread>

namespace servelab::server {
class Server;
}

namespace servelab::lab {

// The control channel of a running `servelab-cli serve`: a Unix socket, one request line and
// one reply line at a time, so `servelab-cli tune`, lab::IsolatedServer and a shell
// (`socat - UNIX-CONNECT:PATH`) all speak it:
//
//   stats                  stats requests=… (server::ServerStats::toLine)
//   get                    options threads=4 chunk=2M … (what may change live, as it is now)
//   set NAME=VALUE …       ok threads=8 … (as get), or: error <one line: what and what to do>
//
// Served on its own thread, one client at a time; a client silent for 10 s is dropped.
class ControlServer
{
public:
    explicit ControlServer(server::Server &server);
    ~ControlServer();
    ControlServer(const ControlServer &) = delete;
    ControlServer &operator=(const ControlServer &) = delete;

    // Binds `path` (a stale socket left there by a dead server is replaced); false with a line.
    bool start(const QString &path, QString *error);
    void stop(); // closes the socket and removes its path
    QString path() const { return m_path; }

    // Where `serve` puts its channel unless told: $XDG_RUNTIME_DIR/servelab/serve-PID.sock,
    // or /tmp/servelab-UID/serve-PID.sock without one.
    static QString defaultPath(qint64 pid);
    // The reply to one request line (without its newline).
    static QByteArray answer(server::Server &server, const QByteArray &request);

private:
    void run();
    void serveClient(int fd);

    server::Server &m_server;
    QString m_path;
    os::UniqueFd m_listen;
    os::UniqueFd m_stop;  // an eventfd: written once by stop()
    os::UniqueFd m_spare; // given up to accept a client when the process is out of fds
    std::thread m_thread;
};

} // namespace servelab::lab
