// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace servelab::remote {

// The agent channel's framing: each message is "Content-Length: N\r\n\r\n" and N bytes of JSON,
// as the Language Server Protocol frames JSON-RPC over stdio. feed() takes bytes as they arrive,
// in any pieces; next() hands out whole messages. A header it cannot read, or a message over
// `maximumBytes`, stops the framer: error() says which, and the channel is to be closed (its
// bytes are no longer in step with the messages).
class MessageFramer
{
public:
    static constexpr qsizetype maximumBytes = 64 * 1024 * 1024;

    static QByteArray frame(const QByteArray &json);

    void feed(const char *data, qsizetype size);
    std::optional<QByteArray> next();
    const QString &error() const { return m_error; }
    qsizetype buffered() const { return m_buffer.size() - m_read; }

private:
    QByteArray m_buffer;
    qsizetype m_read = 0;
    QString m_error;
};

} // namespace servelab::remote
