// SPDX-License-Identifier: Apache-2.0
#include "humantext.h"

namespace servelab::lab {

QString durationText(qint64 ms)
{
    const qint64 seconds = (qMax<qint64>(ms, 0) + 999) / 1000;
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg(seconds % 3600 / 60);
}

QString countText(qint64 n, const QString &noun, const QString &plural)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1             ? noun
                                              : plural.isEmpty() ? noun + u's'
                                                                 : plural);
}

} // namespace servelab::lab
