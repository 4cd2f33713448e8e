// SPDX-License-Identifier: Apache-2.0
#include "setupdifferences.h"

#include "lab/spec/experimentspec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

namespace servelab::lab {

namespace {

QString scalar(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isArray()) { // a list of sizes, of options: one value, its elements by ", "
        QStringList parts;
        for (const QJsonValue &v : value.toArray())
            parts << (v.isString() ? v.toString() : v.toVariant().toString());
        return parts.join(QStringLiteral(", "));
    }
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString();
}

void flatten(const QJsonObject &object, const QString &prefix, QMap<QString, QString> *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = prefix + it.key();
        if (it->isObject())
            flatten(it->toObject(), key + u'.', out);
        else
            out->insert(key, scalar(*it));
    }
}

// The spec as `run` reads it, defaults filled; an empty object when it was not kept or does not
// read.
QJsonObject filled(const QByteArray &text)
{
    ExperimentSpec spec;
    QStringList problems;
    if (text.trimmed().isEmpty() || text.trimmed() == "{}" ||
        !ExperimentSpec::parse(text, QStringLiteral("kept spec"), &spec, &problems))
        return {};
    return QJsonDocument::fromJson(spec.toJson()).object();
}

// A target by what it is: its label, else the server it names; a second one of the same name
// gets "#2".
QMap<QString, QJsonObject> targetsOf(const QJsonObject &spec)
{
    QMap<QString, QJsonObject> out;
    for (const QJsonValue &v : spec.value(QStringLiteral("targets")).toArray()) {
        const QJsonObject t = v.toObject();
        QString name = t.value(QStringLiteral("label")).toString();
        for (const char *key : {"builtin", "external", "command", "url"})
            if (name.isEmpty())
                name = t.value(QLatin1String(key)).toString();
        if (name.isEmpty())
            name = QStringLiteral("target %1").arg(out.size() + 1);
        QString unique = name;
        for (int n = 2; out.contains(unique); ++n)
            unique = QStringLiteral("%1 #%2").arg(name).arg(n);
        out.insert(unique, t);
    }
    return out;
}

void compare(const QMap<QString, QString> &a, const QMap<QString, QString> &b,
             const QString &prefix, QStringList *out)
{
    QStringList keys = a.keys() + b.keys();
    keys.removeDuplicates();
    keys.sort();
    const QString none = QStringLiteral("(not set)");
    for (const QString &key : keys)
        if (a.value(key, none) != b.value(key, none))
            *out << QStringLiteral("%1%2: %3 → %4")
                        .arg(prefix, key, a.value(key, none), b.value(key, none));
}

} // namespace

bool SetupDifferences::kept(const QByteArray &spec)
{
    return !filled(spec).isEmpty();
}

QByteArray SetupDifferences::canonical(const QByteArray &spec)
{
    QJsonObject setup = filled(spec);
    if (setup.isEmpty())
        return {};
    setup.remove(QStringLiteral("name"));
    return QJsonDocument(setup).toJson(QJsonDocument::Compact);
}

QMap<QString, QString> SetupDifferences::flattened(const QJsonObject &object)
{
    QMap<QString, QString> out;
    flatten(object, {}, &out);
    return out;
}

QStringList SetupDifferences::of(const QByteArray &baselineSpec, const QByteArray &candidateSpec)
{
    QJsonObject a = filled(baselineSpec);
    QJsonObject b = filled(candidateSpec);
    if (a.isEmpty() || b.isEmpty())
        return {QStringLiteral("setup: the spec of the %1 was not kept, so whether the setups "
                               "differ is not known")
                    .arg(a.isEmpty() && b.isEmpty() ? QStringLiteral("baseline and the candidate")
                         : a.isEmpty()              ? QStringLiteral("baseline")
                                                    : QStringLiteral("candidate"))};
    const QMap<QString, QJsonObject> targetsA = targetsOf(a);
    const QMap<QString, QJsonObject> targetsB = targetsOf(b);
    for (QJsonObject *spec : {&a, &b}) {
        spec->remove(QStringLiteral("name"));
        spec->remove(QStringLiteral("targets"));
    }
    QStringList out;
    compare(flattened(a), flattened(b), {}, &out);
    for (auto it = targetsA.cbegin(); it != targetsA.cend(); ++it)
        if (!targetsB.contains(it.key()))
            out << QStringLiteral("targets: − %1").arg(it.key());
    for (auto it = targetsB.cbegin(); it != targetsB.cend(); ++it)
        if (!targetsA.contains(it.key()))
            out << QStringLiteral("targets: + %1").arg(it.key());
    for (auto it = targetsA.cbegin(); it != targetsA.cend(); ++it)
        if (targetsB.contains(it.key()))
            compare(flattened(*it), flattened(targetsB.value(it.key())),
                    QStringLiteral("target %1: ").arg(it.key()), &out);
    return out;
}

} // namespace servelab::lab
