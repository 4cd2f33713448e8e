// SPDX-License-Identifier: Apache-2.0
#include "ratelist.h"

#include "specfield.h"
#include "specreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

namespace servelab::lab {

// "rates": [1000, 2000, ...] or {"from": 1000, "to": 10000, "step": 1000}, each in the rate's
// range, each once, in the order given.
QList<qint64> readRateList(SpecReader &r, const QJsonValue &value, const QString &at)
{
    const SpecField &field = SpecFields::rate;
    constexpr int most = 1000;
    QList<qint64> out;
    if (value.isArray()) {
        const QJsonArray list = value.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonObject one{{QStringLiteral("r"), list[i]}};
            const qint64 rate =
                r.integer(one, QStringLiteral("r"), QStringLiteral("%1[%2]").arg(at).arg(i), -1,
                          field.low, field.high);
            if (rate > 0 && !out.contains(rate))
                out << rate;
        }
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        r.onlyKnown(o, at, {QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("step")});
        const qint64 from = r.integer(o, QStringLiteral("from"), at + QStringLiteral(".from"), -1,
                                      field.low, field.high);
        const qint64 to = r.integer(o, QStringLiteral("to"), at + QStringLiteral(".to"), -1,
                                    field.low, field.high);
        const qint64 step =
            r.integer(o, QStringLiteral("step"), at + QStringLiteral(".step"), -1, 1, field.high);
        if (from < 0 || to < 0 || step < 0)
            return {};
        if (from > to || (to - from) / step + 1 > most) {
            r.fail(at, QStringLiteral("wants from <= to and at most %1 rates").arg(most));
            return {};
        }
        for (qint64 rate = from; rate <= to; rate += step)
            out << rate;
    }
    if (out.isEmpty() || out.size() > most)
        r.fail(at, QStringLiteral("wants a list of rates, as [1000, 2000], or {\"from\": 1000, "
                                  "\"to\": 10000, \"step\": 1000}, at most %1")
                       .arg(most));
    return out.size() > most ? QList<qint64>() : out;
}

} // namespace servelab::lab
