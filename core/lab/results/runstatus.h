// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>

#include <optional>

namespace servelab::lab {

// How an experiment stands or ended. Its text ("done") is written only where it leaves the
// program (the database's status column, the history's column) and read back there.
enum class RunStatus
{
    Running,
    Done,
    Cancelled,
    Interrupted, // the process that ran it is gone (killed, crashed); its points are kept
    Failed
};

QString runStatusText(RunStatus status);
std::optional<RunStatus> parseRunStatus(const QString &text);

} // namespace servelab::lab

Q_DECLARE_METATYPE(servelab::lab::RunStatus)
