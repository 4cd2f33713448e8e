// SPDX-License-Identifier: Apache-2.0
#include "servertuning.h"

#include "server/eventmodel.h"
#include "server/server.h"
#include "server/serveroptions.h"
#include "serveroptiontable.h"

#include <algorithm>
#include <mutex>
#include <string_view>

namespace servelab::lab {

namespace {

// One `name=value`, split; false with the reason when it is not one.
bool split(const QString &assignment, QString *name, QString *value, QString *error)
{
    const qsizetype equals = assignment.indexOf(u'=');
    if (equals <= 0) {
        *error = QStringLiteral("'%1' is not name=value (servelab-cli serve --help lists the "
                                "names)")
                     .arg(assignment);
        return false;
    }
    *name = assignment.left(equals).trimmed();
    *value = assignment.mid(equals + 1).trimmed();
    const ServerOptionTable::Row *row = ServerOptionTable::find(*name);
    if (row && row->fixed) {
        *error = QStringLiteral("%1 cannot change while the server runs: %2; restart the "
                                "server with --%1 %3 instead")
                     .arg(*name, QLatin1String(row->fixed), *value);
        return false;
    }
    return true;
}

} // namespace

bool ServerTuning::applyTo(server::ServerOptions *options, const QStringList &assignments,
                           QString *error)
{
    if (assignments.isEmpty()) {
        *error = QStringLiteral("nothing to change: give name=value, e.g. threads=8");
        return false;
    }
    for (const QString &assignment : assignments) {
        QString name;
        QString value;
        if (!split(assignment, &name, &value, error) ||
            !ServerOptionTable::set(options, name, value, error))
            return false;
    }
    return ServerOptionTable::check(*options, error);
}

bool ServerTuning::check(const QStringList &assignments, QString *error, const QString &mode)
{
    server::ServerOptions options;
    if (!applyTo(&options, assignments, error))
        return false;
    const bool threads = std::any_of(assignments.begin(), assignments.end(), [](const QString &a) {
        return a.section(u'=', 0, 0).trimmed() == u"threads";
    });
    if (!mode.isEmpty() && threads && !server::poolResizable(mode.toStdString())) {
        *error = QString::fromStdString(server::threadsFixedReason(mode.toStdString()));
        return false;
    }
    return true;
}

bool ServerTuning::tune(server::Server &server, const QStringList &assignments, QString *error)
{
    // Read, change, write: two changes at once (a spec's step, the Tune panel) must not undo
    // each other, so one at a time in this process.
    static std::mutex oneAtATime;
    std::lock_guard lock(oneAtATime);
    server::ServerOptions next = server.options();
    if (!applyTo(&next, assignments, error))
        return false;
    std::string why;
    if (server.tune(next, &why))
        return true;
    *error = QString::fromStdString(why);
    return false;
}

QStringList ServerTuning::current(const server::ServerOptions &options)
{
    QStringList out;
    const bool threads = server::poolResizable(options.mode);
    for (const auto &row : ServerOptionTable::rows())
        if (!row.fixed && (threads || row.name != std::string_view("threads")))
            out << QLatin1String(row.name) + u'=' + row.text(options);
    return out;
}

} // namespace servelab::lab
