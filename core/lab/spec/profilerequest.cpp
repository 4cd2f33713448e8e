// SPDX-License-Identifier: Apache-2.0
#include "profilerequest.h"

#include "sizelist.h"

#include <QJsonArray>
#include <QJsonObject>

namespace servelab::lab {

namespace {

const QString wanted = QStringLiteral(
    "wants true, or {\"sizes\": [\"12\", \"1M\"], \"frequency\": 499, \"off_cpu\": true}");

} // namespace

bool ProfileRequest::parse(const QJsonValue &value, ProfileRequest *out, QString *why)
{
    *out = {};
    if (value.isBool()) {
        out->enabled = value.toBool();
        return true;
    }
    if (!value.isObject()) {
        *why = wanted;
        return false;
    }
    const QJsonObject o = value.toObject();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        if (it.key() != QStringLiteral("sizes") && it.key() != QStringLiteral("frequency") &&
            it.key() != QStringLiteral("off_cpu")) {
            *why = QStringLiteral("has no field \"%1\": it %2").arg(it.key(), wanted);
            return false;
        }
    out->enabled = true;
    if (const QJsonValue sizes = o.value(QStringLiteral("sizes")); !sizes.isUndefined()) {
        QStringList parts;
        for (const QJsonValue &size : sizes.toArray())
            parts << (size.isString() ? size.toString() : QStringLiteral("?"));
        QString problem;
        if (!sizes.isArray() || parts.isEmpty() ||
            !parseSizeList(parts.join(u','), &out->sizes, &problem)) {
            *why = QStringLiteral("sizes wants a list like [\"12\", \"1M\"]%1")
                       .arg(problem.isEmpty() ? QString() : QStringLiteral(" (") + problem + u')');
            return false;
        }
    }
    if (const QJsonValue f = o.value(QStringLiteral("frequency")); !f.isUndefined()) {
        out->frequency = f.toInt(-1);
        if (!f.isDouble() || out->frequency < 1 || out->frequency > 10000) {
            *why = QStringLiteral("frequency wants samples a second, 1 to 10000 (499 is usual)");
            return false;
        }
    }
    if (const QJsonValue off = o.value(QStringLiteral("off_cpu")); !off.isUndefined()) {
        if (!off.isBool()) {
            *why = QStringLiteral("off_cpu wants true or false");
            return false;
        }
        out->offCpu = off.toBool();
    }
    return true;
}

bool ProfileRequest::parseList(const QString &text, ProfileRequest *out, QString *why)
{
    *out = {};
    out->enabled = true;
    if (text.isEmpty() || text == QStringLiteral("all"))
        return true;
    QString problem;
    if (!parseSizeList(text, &out->sizes, &problem)) {
        *why = QStringLiteral("--profile wants \"all\" or sizes like 12,1M (%1)").arg(problem);
        return false;
    }
    return true;
}

QJsonValue ProfileRequest::toJson() const
{
    ProfileRequest plain;
    plain.enabled = true;
    if (!enabled || (sizes.isEmpty() && frequency == plain.frequency && offCpu == plain.offCpu))
        return enabled;
    QJsonObject o;
    if (!sizes.isEmpty()) {
        QJsonArray list;
        for (const quint64 size : sizes)
            list.append(formatSize(size));
        o.insert(QStringLiteral("sizes"), list);
    }
    if (frequency != plain.frequency)
        o.insert(QStringLiteral("frequency"), frequency);
    if (offCpu != plain.offCpu)
        o.insert(QStringLiteral("off_cpu"), offCpu);
    return o;
}

} // namespace servelab::lab
