// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clocksync.h"

#include <QList>
#include <QString>

#include <functional>

namespace servelab::remote {

struct HostsFile;

// `servelab-cli hosts check FILE`: every agent reached and described, its clock measured
// against the coordinator's, and one GET from every load agent to a server the server agent
// starts on its address — before anyone spends an evening on a run that cannot work.
struct HostCheckRow
{
    QString role; // "server", "load 1"
    QString host;
    QString version;
    QString kernel;
    int cores = 0;
    qint64 nofileSoft = 0; // -1: unlimited
    qint64 nofileHard = 0;
    ClockOffset clock;
    QString get;     // "ok, 0.4 ms" (load agents), "serving on 10.0.0.1:41234" (the server)
    QString problem; // empty: this host is ready
};

class HostCheck
{
public:
    // Pings per agent for the clock offset (the minimum-RTT one counts).
    static constexpr int clockPings = 16;

    // Runs the check; `progress` hears a line per step ("server agent (web1): reached").
    static QList<HostCheckRow> run(const HostsFile &hosts,
                                   const std::function<void(const QString &)> &progress = {});
    // The rows as an aligned text table, problems on their own lines after it.
    static QString table(const QList<HostCheckRow> &rows);
};

} // namespace servelab::remote
