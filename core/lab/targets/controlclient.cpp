// SPDX-License-Identifier: Apache-2.0
#include "controlclient.h"

#include <QDeadlineTimer>
#include <QFileInfo>
#include <QLocalSocket>

namespace servelab::lab {

std::optional<QByteArray> ControlClient::ask(const QString &path, const QByteArray &request,
                                             int timeoutMs, QString *error)
{
    if (!QFileInfo::exists(path)) {
        *error = QStringLiteral("no control socket at %1: is the server running? (serve names "
                                "its socket on its third line; --control none opens none)")
                     .arg(path);
        return std::nullopt;
    }
    QDeadlineTimer deadline(timeoutMs);
    QLocalSocket socket;
    socket.connectToServer(path);
    if (!socket.waitForConnected(int(deadline.remainingTime()))) {
        *error = QStringLiteral("nothing answers on the control socket %1 (%2): the server that "
                                "opened it is gone")
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
