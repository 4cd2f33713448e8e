// SPDX-License-Identifier: Apache-2.0
#include "tuneplan.h"

#include "servertuning.h"
#include "specreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace servelab::lab {

QList<TuneStep> TunePlan::read(SpecReader &r, const QJsonValue &value, const QString &path)
{
    QList<TuneStep> steps;
    if (value.isUndefined())
        return steps;
    if (!value.isArray()) {
        r.fail(path, QStringLiteral("wants a list of changes, as [{\"at_ms\": 5000, \"threads\": "
                                    "8}]"));
        return steps;
    }
    const QJsonArray list = value.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(path).arg(i);
        if (!list[i].isObject()) {
            r.fail(at, QStringLiteral("wants an object, as {\"at_ms\": 5000, \"threads\": 8}"));
            continue;
        }
        const QJsonObject o = list[i].toObject();
        TuneStep step;
        step.atMs = int(
            r.integer(o, QStringLiteral("at_ms"), at + QStringLiteral(".at_ms"), -1, 0, latestMs));
        if (!o.contains(QStringLiteral("at_ms")))
            r.fail(at, QStringLiteral("wants \"at_ms\": when, from the point's start, the change "
                                      "is made"));
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == u"at_ms")
                continue;
            const QString place = at + u'.' + it.key();
            QString text;
            if (!r.flagValue(it.value(), place, &text))
                continue;
            const QString assignment = it.key() + u'=' + text;
            if (QString why; !ServerTuning::check({assignment}, &why))
                r.fail(place, why, true);
            else
                step.assignments << assignment;
        }
        if (o.size() == 1 && o.contains(QStringLiteral("at_ms")))
            r.fail(at, QStringLiteral("changes nothing: add an option, as \"threads\": 8"));
        steps << step;
    }
    std::stable_sort(steps.begin(), steps.end(),
                     [](const TuneStep &a, const TuneStep &b) { return a.atMs < b.atMs; });
    return steps;
}

QJsonArray TunePlan::toJson(const QList<TuneStep> &steps)
{
    QJsonArray out;
    for (const TuneStep &step : steps) {
        QJsonObject o{{QStringLiteral("at_ms"), step.atMs}};
        for (const QString &assignment : step.assignments) {
            const qsizetype equals = assignment.indexOf(u'=');
            o.insert(assignment.left(equals), assignment.mid(equals + 1));
        }
        out.append(o);
    }
    return out;
}

QString TunePlan::problem(const QList<TuneStep> &steps, const QString &mode)
{
    for (const TuneStep &step : steps) {
        if (step.atMs < 0 || step.atMs > latestMs)
            return QStringLiteral("a tune step's at_ms is %1, not between 0 and %2")
                .arg(step.atMs)
                .arg(latestMs);
        if (QString why; !ServerTuning::check(step.assignments, &why, mode))
            return QStringLiteral("tune at %1 ms: %2").arg(step.atMs).arg(why);
    }
    return {};
}

QString TunePlan::toText(const QList<TuneStep> &steps)
{
    QStringList parts;
    for (const TuneStep &step : steps)
        parts << QStringLiteral("%1 ms: %2").arg(step.atMs).arg(step.assignments.join(u' '));
    return parts.join(QStringLiteral("; "));
}

bool TunePlan::fromText(const QString &text, QList<TuneStep> *steps, QString *error,
                        const QString &mode)
{
    steps->clear();
    static const QRegularExpression shape(QStringLiteral("^(\\d+)\\s*(?:ms)?\\s*:\\s*(.+)$"));
    for (const QString &part : text.split(u';', Qt::SkipEmptyParts)) {
        const QString step = part.trimmed();
        if (step.isEmpty())
            continue;
        const auto match = shape.match(step);
        bool ok = false;
        const qint64 at = match.captured(1).toLongLong(&ok);
        if (!match.hasMatch() || !ok || at > latestMs) {
            *error = QStringLiteral("'%1' is not a tune step: write MS: NAME=VALUE ..., as "
                                    "5000 ms: threads=8 (at most %2 ms)")
                         .arg(step)
                         .arg(latestMs);
            return false;
        }
        TuneStep s{int(at), match.captured(2).split(u' ', Qt::SkipEmptyParts)};
        if (!ServerTuning::check(s.assignments, error, mode))
            return false;
        *steps << s;
    }
    std::stable_sort(steps->begin(), steps->end(),
                     [](const TuneStep &a, const TuneStep &b) { return a.atMs < b.atMs; });
    return true;
}

} // namespace servelab::lab
