// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QStringList>

class QTextStream;

namespace servelab::cli {

// Exit codes (design.md): bad arguments 2, a run that failed 1.
inline constexpr int exitOk = 0;
inline constexpr int exitFailure = 1;
inline constexpr int exitUsage = 2;

// Runs `servelab-cli ARGS...` (arguments[0] is the program). Output goes to out, the one-line
// reasons for failures to err.
int run(const QStringList &arguments, QTextStream &out, QTextStream &err);

int serveCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int loadCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int sweepCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

int runCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int compareCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int importCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int presetsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int watchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int tuneCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int agentCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int hostsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);
int k8sJobCommand(const QStringList &arguments, QTextStream &out, QTextStream &err);

} // namespace servelab::cli
