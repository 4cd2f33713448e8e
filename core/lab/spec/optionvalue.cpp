// SPDX-License-Identifier: Apache-2.0
#include "optionvalue.h"

#include "sizelist.h"

#include <QRegularExpression>

namespace servelab::lab {

bool OptionValue::wholeNumber(const QString &text, qint64 min, qint64 max, qint64 *value,
                              QString *error)
{
    bool ok = false;
    const qint64 parsed = text.toLongLong(&ok);
    if (!ok || parsed < min || parsed > max) {
        *error = QStringLiteral("wants a whole number from %1 to %2, not '%3'")
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return false;
    }
    *value = parsed;
    return true;
}

bool OptionValue::size(const QString &text, quint64 min, quint64 max, quint64 *bytes,
                       QString *error)
{
    quint64 parsed = 0;
    if (!parseSize(text, &parsed, nullptr) || parsed < min || parsed > max) {
        *error = QStringLiteral("wants a size from %1 to %2 (like 8K or 81000), not '%3'")
                     .arg(formatSize(min), formatSize(max), text);
        return false;
    }
    *bytes = parsed;
    return true;
}

bool OptionValue::duration(const QString &text, qint64 maxMs, int *ms, QString *error)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d+(?:\\.\\d+)?)(ms|s)?$"));
    const QString trimmed = text.trimmed();
    const auto match = pattern.match(trimmed);
    const double value = match.captured(1).toDouble();
    const double parsed = match.captured(2) == u"ms" ? value : value * 1000.0;
    if (!match.hasMatch() || parsed < 1 || parsed > double(maxMs)) {
        *error = QStringLiteral("wants a duration like 500ms or 5s (at most %1 s), not '%2'")
                     .arg(maxMs / 1000)
                     .arg(trimmed);
        return false;
    }
    *ms = static_cast<int>(parsed);
    return true;
}

bool OptionValue::onOff(const QString &text, bool *value, QString *error)
{
    const QString lower = text.toLower();
    if (lower == u"on" || lower == u"yes" || lower == u"true" || lower == u"1") {
        *value = true;
        return true;
    }
    if (lower == u"off" || lower == u"no" || lower == u"false" || lower == u"0") {
        *value = false;
        return true;
    }
    *error = QStringLiteral("wants on or off, not '%1'").arg(lower);
    return false;
}

QString OptionValue::durationText(int ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1s").arg(ms / 1000) : QStringLiteral("%1ms").arg(ms);
}

} // namespace servelab::lab
