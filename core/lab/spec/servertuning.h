// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace servelab::server {
class Server;
struct ServerOptions;
} // namespace servelab::server

namespace servelab::lab {

// Changes to a built-in server while it serves (seed 003's "tune under load and see the effects
// immediately"), as `name=value` assignments of ServerOptionTable's names: `servelab-cli tune`,
// the control channel of `serve`, a spec's "tune" steps and the window's Tune panel all go
// through here, so each refusal reads the same.
class ServerTuning
{
public:
    // Checks the assignments without a server: each one `name=value`, a known option that may
    // change live, a good value, and with `mode` ("epoll+sendfile") one its server can take.
    // False with one line naming the first that is not.
    static bool check(const QStringList &assignments, QString *error, const QString &mode = {});
    // `options` with the assignments applied (check() first).
    static bool applyTo(server::ServerOptions *options, const QStringList &assignments,
                        QString *error);
    // All at once or none: false with one line, and the server goes on unchanged.
    static bool tune(server::Server &server, const QStringList &assignments, QString *error);
    // The options that may change live, as `name=value` with the value a running server has now
    // (threads only where its pool can change).
    static QStringList current(const server::ServerOptions &options);
};

} // namespace servelab::lab
