// SPDX-License-Identifier: Apache-2.0
#include "sizelist.h"

#include <QRegularExpression>

#include <algorithm>

namespace servelab::lab {

namespace {
constexpr quint64 maxSize = quint64(64) << 30; // 64 GiB: a generated file larger is a typo
}

bool parseSize(const QString &text, quint64 *bytes, QString *error)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(\\d+)\\s*([kKmMgG]?)(i?B)?\\s*$"));
    const auto match = pattern.match(text);
    bool ok = match.hasMatch();
    quint64 value = ok ? match.captured(1).toULongLong(&ok) : 0;
    const QString unit = match.captured(2).toUpper();
    const int shift = unit == u"K" ? 10 : unit == u"M" ? 20 : unit == u"G" ? 30 : 0;
    if (ok && value > (maxSize >> shift))
        ok = false;
    value <<= shift;
    if (!ok || value == 0) {
        if (error)
            *error = QStringLiteral("'%1' is not a file size: write it like 4096, 4K, 1M or 2G "
                                    "(at most 64G)")
                         .arg(text.trimmed());
        return false;
    }
    *bytes = value;
    return true;
}

bool parseSizeList(const QString &text, QList<quint64> *sizes, QString *error)
{
    QList<quint64> out;
    const auto parts = text.split(u',', Qt::SkipEmptyParts);
    for (const auto &part : parts) {
        const auto range = part.split(QStringLiteral(".."));
        if (range.size() == 2) {
            quint64 from = 0;
            quint64 to = 0;
            if (!parseSize(range[0], &from, error) || !parseSize(range[1], &to, error))
                return false;
            if (from > to) {
                if (error)
                    *error = QStringLiteral("the range '%1' runs backwards").arg(part.trimmed());
                return false;
            }
            for (quint64 size = from; size <= to; size *= 2)
                out.append(size);
        } else {
            quint64 size = 0;
            if (!parseSize(part, &size, error))
                return false;
            out.append(size);
        }
    }
    if (out.isEmpty()) {
        if (error)
            *error = QStringLiteral("no file sizes given: write them like 4K,64K,1M or 4K..32M");
        return false;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    *sizes = out;
    return true;
}

QString formatSize(quint64 bytes)
{
    static constexpr struct
    {
        int shift;
        char16_t unit;
    } units[] = {{30, u'G'}, {20, u'M'}, {10, u'K'}};
    for (const auto &u : units) {
        const quint64 step = quint64(1) << u.shift;
        if (bytes >= step && bytes % step == 0)
            return QString::number(bytes >> u.shift) + QChar(u.unit);
    }
    return QString::number(bytes);
}

QString formatSizeList(const QList<quint64> &sizes)
{
    // A run of three or more doublings reads better as the range parseSizeList() understands.
    QStringList parts;
    for (qsizetype i = 0; i < sizes.size();) {
        qsizetype last = i;
        while (last + 1 < sizes.size() && sizes[last + 1] == sizes[last] * 2)
            ++last;
        if (last - i >= 2) {
            parts.append(formatSize(sizes[i]) + QStringLiteral("..") + formatSize(sizes[last]));
        } else {
            for (qsizetype j = i; j <= last; ++j)
                parts.append(formatSize(sizes[j]));
        }
        i = last + 1;
    }
    return parts.join(u',');
}

} // namespace servelab::lab
