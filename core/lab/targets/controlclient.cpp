// SPDX-License-Identifier: Apache-2.0
#include "controlclient.h"

#include <QDeadlineTimer>
#include <QLocalSocket>

namespace servelab::lab {

std::optional<QByteArray> ControlClient::ask(const QString &path, const QByteArray &request,
                                             int timeoutMs, QString *error)
{
    QDeadlineTimer deadline(timeoutMs);
    QLocalSocket socket;
    socket.connectToServer(path);
    if (!socket.waitForConnected(int(deadline.remainingTime()))) {
        *error = QStringLiteral("cannot reach the server's control socket %1: %2 (is that "
                                "server running?)")
                     .arg(path, socket.errorString());
        return std::nullopt;
    }
    socket.write(request + '\n');
    while (!socket.canReadLine()) {
        if (deadline.hasExpired() || !socket.waitForReadyRead(int(deadline.remainingTime()))) {
            *error = QStringLiteral("the server did not answer '%1' on %2 within %3 ms")
                         .arg(QString::fromUtf8(request), path)
                         .arg(timeoutMs);
            return std::nullopt;
        }
    }
    return socket.readLine().trimmed();
}

} // namespace servelab::lab
