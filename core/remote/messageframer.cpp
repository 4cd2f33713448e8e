// SPDX-License-Identifier: Apache-2.0
#include "messageframer.h"

#include <QList>

namespace servelab::remote {

namespace {

constexpr QByteArrayView lengthField("content-length:");
constexpr qsizetype maximumHeaderBytes = 1024;

} // namespace

QByteArray MessageFramer::frame(const QByteArray &json)
{
    return "Content-Length: " + QByteArray::number(json.size()) + "\r\n\r\n" + json;
}

void MessageFramer::feed(const char *data, qsizetype size)
{
    if (!m_error.isEmpty())
        return;
    // Drop what was handed out before growing: the buffer holds at most one message and a bit.
    if (m_read > 0 && m_read == m_buffer.size()) {
        m_buffer.clear();
        m_read = 0;
    } else if (m_read > 64 * 1024) {
        m_buffer.remove(0, m_read);
        m_read = 0;
    }
    m_buffer.append(data, size);
}

std::optional<QByteArray> MessageFramer::next()
{
    if (!m_error.isEmpty())
        return std::nullopt;
    const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n", m_read);
    if (headerEnd < 0) {
        if (buffered() > maximumHeaderBytes)
            m_error = QStringLiteral("a message header longer than %1 bytes (not a ServeLab "
                                     "agent on the other end?)")
                          .arg(maximumHeaderBytes);
        return std::nullopt;
    }
    // Header fields, one per line; only Content-Length matters (Content-Type is allowed).
    qsizetype length = -1;
    const QByteArray header = m_buffer.mid(m_read, headerEnd - m_read);
    for (const QByteArray &line : header.split('\n')) {
        const QByteArray field = line.trimmed();
        if (field.isEmpty())
            continue;
        if (!field.toLower().startsWith(lengthField.toByteArray()))
            continue;
        bool ok = false;
        length = field.mid(lengthField.size()).trimmed().toLongLong(&ok);
        if (!ok || length < 0) {
            m_error = QStringLiteral("a bad Content-Length in a message header: \"%1\"")
                          .arg(QString::fromLatin1(field.left(80)));
            return std::nullopt;
        }
    }
    if (length < 0) {
        m_error = QStringLiteral("a message header without Content-Length: \"%1\" (not a "
                                 "ServeLab agent on the other end?)")
                      .arg(QString::fromLatin1(header.left(80)).simplified());
        return std::nullopt;
    }
    if (length > maximumBytes) {
        m_error = QStringLiteral("a message of %1 bytes, over the limit of %2")
                      .arg(length)
                      .arg(maximumBytes);
        return std::nullopt;
    }
    const qsizetype bodyStart = headerEnd + 4;
    if (m_buffer.size() - bodyStart < length)
        return std::nullopt;
    QByteArray body = m_buffer.mid(bodyStart, length);
    m_read = bodyStart + length;
    return body;
}

} // namespace servelab::remote
