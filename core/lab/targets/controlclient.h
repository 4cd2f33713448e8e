// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace servelab::lab {

// The asking side of a `serve` control channel (ControlServer has the protocol): one request
// line, its one reply line. Blocking, on the caller's thread, without an event loop.
class ControlClient
{
public:
    static std::optional<QByteArray> ask(const QString &path, const QByteArray &request,
                                         int timeoutMs, QString *error);
};

} // namespace servelab::lab
