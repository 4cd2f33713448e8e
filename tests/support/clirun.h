// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "childprocess.h"

#include <QFile>
#include <QString>
#include <QStringList>

// The real servelab-cli (or any program) run to its end, as the command-line tests need it:
// its exit status (-1 when it crashed or did not end within the time), stdout and stderr.
struct CliRun
{
    int code = -1;
    QString out;
    QString err;
};

inline CliRun runProgram(const QString &program, const QStringList &arguments,
                         int timeoutMs = 60000)
{
    ChildProcess process;
    process.start(program, arguments);
    CliRun run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("%1 did not end within %2 ms").arg(program).arg(timeoutMs);
        return run;
    }
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// A whole file, or nothing when it cannot be read.
inline QByteArray readWholeFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
