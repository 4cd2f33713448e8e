// SPDX-License-Identifier: Apache-2.0
#include "loadmodelchoice.h"

#include <QCommandLineParser>
#include <QStringList>

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

namespace servelab::cli {

namespace {

constexpr unsigned bit(LoadModel m)
{
    return 1u << static_cast<unsigned>(m);
}

// One row per flag that not every model takes: the models that take it, and what it is.
struct FlagRow
{
    const char *flag;
    unsigned models;
    const char *what;
};
constexpr FlagRow flags[] = {
    {"n", bit(LoadModel::Closed), "ab's request count; the other models run for a time"},
    {"t", bit(LoadModel::Closed), "ab's time limit, not wrk's threads (those are --threads)"},
    {"k", bit(LoadModel::Closed) | bit(LoadModel::Ramp),
     "ab's keep-alive; duration and rate always keep connections alive"},
    {"d", bit(LoadModel::Duration) | bit(LoadModel::Rate), "wrk's duration in seconds"},
    {"threads", bit(LoadModel::Duration) | bit(LoadModel::Rate) | bit(LoadModel::Ramp),
     "the client threads (wrk -t)"},
    {"R", bit(LoadModel::Rate), "wrk2's offered rate"},
    {"ramp", bit(LoadModel::Ramp), "faban's ramp-up/steady/ramp-down"},
    {"think", bit(LoadModel::Ramp), "faban's think time"},
    {"keepalive-think", bit(LoadModel::Closed) | bit(LoadModel::Duration),
     "a wait between requests on a kept-alive connection; rate and ramp keep their own schedule"},
};

QString dashed(const char *flag)
{
    const QString name = QString::fromLatin1(flag);
    return (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
}

// "closed, duration" or, with a last word, "closed, duration, rate or ramp".
QString modelsTaking(unsigned mask, const QString &last = QStringLiteral(", "))
{
    QStringList names;
    for (const auto &row : client::loadModels())
        if (mask & bit(row.model))
            names << QString::fromLatin1(row.name);
    const QString tail = names.size() > 1 ? names.takeLast() : QString();
    return names.join(QStringLiteral(", ")) + (tail.isEmpty() ? QString() : last + tail);
}

QString described(const FlagRow &row)
{
    return QStringLiteral("%1 is %2 (%3)")
        .arg(dashed(row.flag), QString::fromLatin1(row.what), modelsTaking(row.models));
}

} // namespace

QString loadFlagHelp(const char *flag, const QString &help)
{
    const auto *row = std::find_if(std::begin(flags), std::end(flags), [&](const FlagRow &r) {
        return std::string_view(r.flag) == flag;
    });
    return row == std::end(flags) ? help : modelsTaking(row->models) + QStringLiteral(": ") + help;
}

bool chooseLoadModel(const QCommandLineParser &parser, LoadModel *model, QString *error)
{
    std::vector<const FlagRow *> given;
    for (const auto &row : flags)
        if (parser.isSet(QString::fromLatin1(row.flag)))
            given.push_back(&row);
    if (parser.isSet(QStringLiteral("model"))) {
        const QString name = parser.value(QStringLiteral("model"));
        const auto found = client::parseLoadModel(name.toStdString());
        if (!found) {
            *error = QStringLiteral("--model wants %1, not '%2'")
                         .arg(modelsTaking(~0u, QStringLiteral(" or ")), name);
            return false;
        }
        for (const FlagRow *row : given)
            if (!(row->models & bit(*found))) {
                *error = QStringLiteral("%1 does not apply to --model %2: %3")
                             .arg(dashed(row->flag), name, described(*row));
                return false;
            }
        *model = *found;
        return true;
    }
    for (const auto &row : client::loadModels()) {
        bool takesAll = true;
        for (const FlagRow *flag : given)
            takesAll = takesAll && (flag->models & bit(row.model));
        if (takesAll) {
            *model = row.model;
            return true;
        }
    }
    // No model takes them all: name the ones that do not fit the model most of them ask for
    // (on a tie the first of duration, rate, ramp, closed: -d with ab's -t means wrk's model).
    const LoadModel tieOrder[] = {LoadModel::Duration, LoadModel::Rate, LoadModel::Ramp,
                                  LoadModel::Closed};
    LoadModel best = tieOrder[0];
    int bestCount = -1;
    for (const LoadModel m : tieOrder) {
        const auto count = std::count_if(given.begin(), given.end(),
                                         [&](const FlagRow *f) { return f->models & bit(m); });
        if (count > bestCount) {
            best = m;
            bestCount = static_cast<int>(count);
        }
    }
    QStringList choosing;
    QStringList refused;
    QStringList why;
    for (const FlagRow *row : given) {
        if (row->models & bit(best)) {
            choosing << dashed(row->flag);
        } else {
            refused << dashed(row->flag);
            why << described(*row);
        }
    }
    *error = QStringLiteral("%1 %2 not apply to the %3 model that %4 %5 for: %6; or name a model "
                            "with --model")
                 .arg(refused.join(QStringLiteral(" and ")),
                      refused.size() == 1 ? QStringLiteral("does") : QStringLiteral("do"),
                      QString::fromLatin1(client::loadModelName(best)),
                      choosing.join(QStringLiteral(" and ")),
                      choosing.size() == 1 ? QStringLiteral("asks") : QStringLiteral("ask"),
                      why.join(QStringLiteral("; ")));
    return false;
}

} // namespace servelab::cli
