// SPDX-License-Identifier: Apache-2.0
#include "runstatus.h"

namespace servelab::lab {

namespace {

// The database's CHECK constraint (ResultStore's first migration) allows exactly these.
constexpr std::pair<RunStatus, const char *> names[] = {
    {RunStatus::Running, "running"},     {RunStatus::Done, "done"},
    {RunStatus::Cancelled, "cancelled"}, {RunStatus::Interrupted, "interrupted"},
    {RunStatus::Failed, "failed"},
};

} // namespace

QString runStatusText(RunStatus status)
{
    for (const auto &[value, name] : names)
        if (value == status)
            return QString::fromLatin1(name);
    return {};
}

std::optional<RunStatus> parseRunStatus(const QString &text)
{
    for (const auto &[value, name] : names)
        if (text == QLatin1String(name))
            return value;
    return std::nullopt;
}

} // namespace servelab::lab
