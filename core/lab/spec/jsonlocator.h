// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>

namespace servelab::lab {

// Where each value of a JSON document starts, by path ("client.requests", "targets[0].builtin"),
// as line and column (from 1), so that a spec's errors can point at the place to fix. Qt's JSON
// parser gives positions for syntax errors only; this scanner is written here for the rest.
// It expects text QJsonDocument has accepted.
class JsonLocator
{
public:
    struct Position
    {
        int line = 0;
        int column = 0;
    };

    explicit JsonLocator(const QByteArray &text);
    // The value's position, or its nearest ancestor's (the document's start at worst).
    Position valueAt(const QString &path) const;
    // The key's position in its object (for a field that should not be there).
    Position keyAt(const QString &path) const;
    // Line and column of a byte offset in `text` (QJsonParseError::offset, say).
    static Position positionIn(const QByteArray &text, qsizetype offset);

private:
    void skipSpace();
    void value(const QString &path);
    QString string();

    QByteArray m_text;
    qsizetype m_at = 0;
    QHash<QString, qsizetype> m_values;
    QHash<QString, qsizetype> m_keys;
};

} // namespace servelab::lab
