// SPDX-License-Identifier: Apache-2.0
#include "specreader.h"

#include "serveroptiontable.h"
#include "specfield.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>

#include <cmath>

namespace servelab::lab {

bool SpecReader::wholeNumber(double d, qint64 *out)
{
    if (!std::isfinite(d) || std::trunc(d) != d || std::abs(d) >= 9.2e18)
        return false;
    *out = qint64(d);
    return true;
}

SpecReader::SpecReader(const QByteArray &text, const QString &fileName, QStringList *errors)
    : m_locator(text), m_file(fileName), m_errors(errors)
{}

void SpecReader::fail(const QString &path, const QString &what, bool atKey)
{
    const auto p = atKey ? m_locator.keyAt(path) : m_locator.valueAt(path);
    *m_errors << QStringLiteral("%1:%2:%3: %4: %5")
                     .arg(m_file)
                     .arg(p.line)
                     .arg(p.column)
                     .arg(path.isEmpty() ? QStringLiteral("spec") : path, what);
}

void SpecReader::onlyKnown(const QJsonObject &object, const QString &path, const QStringList &known)
{
    for (const QString &key : object.keys())
        if (!known.contains(key))
            fail(path.isEmpty() ? key : path + u'.' + key,
                 QStringLiteral("unknown field (known here: %1)").arg(known.join(u", ")), true);
}

qint64 SpecReader::integer(const QJsonObject &object, const QString &key, const QString &path,
                           qint64 fallback, qint64 low, qint64 high)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined())
        return fallback;
    qint64 n = 0;
    if (!v.isDouble() || !wholeNumber(v.toDouble(), &n) || n < low || n > high) {
        fail(path, QStringLiteral("wants a whole number from %1 to %2").arg(low).arg(high));
        return fallback;
    }
    return n;
}

qint64 SpecReader::integer(const QJsonObject &object, const SpecField &field, const QString &path)
{
    const QString full = QString::fromLatin1(field.path);
    return integer(object, full.mid(full.lastIndexOf(u'.') + 1), path.isEmpty() ? full : path,
                   field.fallback, field.low, field.high);
}

bool SpecReader::boolean(const QJsonObject &object, const QString &key, const QString &path,
                         bool fallback)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined())
        return fallback;
    if (!v.isBool())
        fail(path, QStringLiteral("wants true or false"));
    return v.toBool(fallback);
}

QString SpecReader::text(const QJsonObject &object, const QString &key, const QString &path,
                         const QString &fallback)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined())
        return fallback;
    if (!v.isString() || v.toString().isEmpty()) {
        fail(path, QStringLiteral("wants a non-empty string"));
        return fallback;
    }
    return v.toString();
}

bool SpecReader::flagValue(const QJsonValue &v, const QString &path, QString *text)
{
    if (v.isBool()) {
        *text = v.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    } else if (v.isString() && !v.toString().isEmpty()) {
        *text = v.toString();
    } else if (qint64 n = 0; v.isDouble() && wholeNumber(v.toDouble(), &n)) {
        *text = QString::number(n);
    } else {
        fail(path, QStringLiteral("wants a whole number, a string or true/false"));
        return false;
    }
    return true;
}

bool SpecReader::flagName(const QString &name, const QString &path, bool atKey)
{
    static const QStringList own{QStringLiteral("root"),    QStringLiteral("host"),
                                 QStringLiteral("port"),    QStringLiteral("mode"),
                                 QStringLiteral("threads"), QStringLiteral("fd-limit")};
    static const QRegularExpression shape(QStringLiteral("^[a-z][a-z0-9-]*$"));
    if (!shape.match(name).hasMatch()) {
        fail(path,
             QStringLiteral("'%1' is not a server option name (as in servelab-cli "
                            "serve --help, without the dashes)")
                 .arg(name),
             atKey);
        return false;
    }
    if (own.contains(name)) {
        fail(path,
             QStringLiteral("'%1' is set by the target itself (builtin, threads, fd_limit)")
                 .arg(name),
             atKey);
        return false;
    }
    if (!ServerOptionTable::find(name)) {
        fail(path,
             QStringLiteral("'%1' is not a server option (servelab-cli serve --help lists "
                            "them)")
                 .arg(name),
             atKey);
        return false;
    }
    return true;
}

} // namespace servelab::lab
