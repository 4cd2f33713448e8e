// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDir>
#include <QFile>
#include <QString>

#include <unistd.h>

// What /proc says about a process, for tests that watch a server or a run from outside.
namespace procstat {

// CPU time used so far (user + system), in clock ticks (sysconf(_SC_CLK_TCK) a second); -1
// when the process is gone.
inline qint64 cpuTicks(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const auto fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return fields.value(11).toLongLong() + fields.value(12).toLongLong(); // utime + stime
}

inline double cpuSeconds(qint64 pid)
{
    return double(cpuTicks(pid)) / double(sysconf(_SC_CLK_TCK));
}

inline int entries(const QString &path)
{
    return static_cast<int>(
        QDir(path).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System).size());
}

// Open descriptors and threads; 0 when the process is gone.
inline int fdCount(qint64 pid)
{
    return entries(QStringLiteral("/proc/%1/fd").arg(pid));
}
inline int threadCount(qint64 pid)
{
    return entries(QStringLiteral("/proc/%1/task").arg(pid));
}

// The state of thread `tid` of process `pid`: 'R' running, 'S' asleep in a wait (a futex, a
// poll), 'D' in I/O, ...; 0 when it is gone.
inline char threadState(qint64 pid, qint64 tid)
{
    QFile stat(QStringLiteral("/proc/%1/task/%2/stat").arg(pid).arg(tid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    const auto end = text.lastIndexOf(')'); // the name may hold spaces and parentheses
    return end >= 0 && end + 2 < text.size() ? text.at(end + 2) : 0;
}

// Resident memory in KiB (VmRSS); -1 when the process is gone.
inline qint64 rssKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

} // namespace procstat
