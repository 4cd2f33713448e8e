// SPDX-License-Identifier: Apache-2.0
#include "jsonlocator.h"

namespace servelab::lab {

JsonLocator::JsonLocator(const QByteArray &text) : m_text(text)
{
    skipSpace();
    value(QString());
}

void JsonLocator::skipSpace()
{
    while (m_at < m_text.size() && (m_text[m_at] == ' ' || m_text[m_at] == '\n' ||
                                    m_text[m_at] == '\r' || m_text[m_at] == '\t'))
        ++m_at;
}

// A string token's text, escapes kept as written (keys with escapes are not ours anyway).
QString JsonLocator::string()
{
    const qsizetype start = ++m_at; // past the opening quote
    while (m_at < m_text.size() && m_text[m_at] != '"')
        m_at += m_text[m_at] == '\\' ? 2 : 1;
    const QString text = QString::fromUtf8(m_text.mid(start, m_at - start));
    ++m_at; // the closing quote
    return text;
}

void JsonLocator::value(const QString &path)
{
    if (m_at >= m_text.size())
        return;
    m_values.insert(path, m_at);
    const char c = m_text[m_at];
    if (c == '{') {
        ++m_at;
        for (skipSpace(); m_at < m_text.size() && m_text[m_at] != '}';) {
            const qsizetype keyStart = m_at;
            const QString key = string();
            const QString child = path.isEmpty() ? key : path + u'.' + key;
            m_keys.insert(child, keyStart);
            skipSpace();
            ++m_at; // ':'
            skipSpace();
            value(child);
            skipSpace();
            if (m_at < m_text.size() && m_text[m_at] == ',')
                ++m_at;
            skipSpace();
        }
        ++m_at;
    } else if (c == '[') {
        ++m_at;
        int index = 0;
        for (skipSpace(); m_at < m_text.size() && m_text[m_at] != ']';) {
            value(QStringLiteral("%1[%2]").arg(path).arg(index++));
            skipSpace();
            if (m_at < m_text.size() && m_text[m_at] == ',')
                ++m_at;
            skipSpace();
        }
        ++m_at;
    } else if (c == '"') {
        string();
    } else {
        while (m_at < m_text.size() && !QByteArrayView(",]} \t\r\n").contains(m_text[m_at]))
            ++m_at;
    }
}

JsonLocator::Position JsonLocator::positionIn(const QByteArray &text, qsizetype offset)
{
    Position p{1, 1};
    for (qsizetype i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else if ((text[i] & 0xc0) != 0x80) { // count characters, not UTF-8 bytes
            ++p.column;
        }
    }
    return p;
}

JsonLocator::Position JsonLocator::valueAt(const QString &path) const
{
    for (QString p = path;;) {
        if (const auto it = m_values.find(p); it != m_values.end())
            return positionIn(m_text, *it);
        if (p.isEmpty())
            return {1, 1};
        // The parent: drop the last ".key" or "[n]".
        const qsizetype cut = std::max(p.lastIndexOf(u'.'), p.lastIndexOf(u'['));
        p = cut < 0 ? QString() : p.left(cut);
    }
}

JsonLocator::Position JsonLocator::keyAt(const QString &path) const
{
    if (const auto it = m_keys.find(path); it != m_keys.end())
        return positionIn(m_text, *it);
    return valueAt(path);
}

} // namespace servelab::lab
