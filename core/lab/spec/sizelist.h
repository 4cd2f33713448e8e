// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

namespace servelab::lab {

// File sizes as design.md writes them: 4K, 1M, 32M (powers of 1024), or plain bytes.
// A list is comma-separated; "4K..32M" is every power-of-two multiple from 4K to 32M.
// On failure returns false and sets *error to a sentence that names the bad element.
bool parseSize(const QString &text, quint64 *bytes, QString *error);
bool parseSizeList(const QString &text, QList<quint64> *sizes, QString *error);

// "4K", "1M", "1536" — the largest unit that divides exactly.
QString formatSize(quint64 bytes);
// "4K,64K,1M"; a run of three or more doublings is written as a range, "4K..32M".
QString formatSizeList(const QList<quint64> &sizes);

} // namespace servelab::lab
