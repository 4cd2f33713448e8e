// SPDX-License-Identifier: Apache-2.0
#include "machinefacts.h"

#include "servelab_config.h"

#include <QFile>
#include <QRegularExpression>
#include <QSysInfo>

#include <algorithm>
#include <sched.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace servelab::lab {

namespace {

QString firstLine(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readLine()).trimmed()
                                          : QString();
}

// The value of "key : value" lines (/proc/cpuinfo, /proc/meminfo).
QString field(const QString &path, const QString &key)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // Read whole: a /proc file's size is 0, so QFile::atEnd() says so before the first line.
    const QRegularExpression line(
        QStringLiteral("^%1\\s*:\\s*(.*)$").arg(QRegularExpression::escape(key)),
        QRegularExpression::MultilineOption);
    const auto match = line.match(QString::fromUtf8(file.readAll()));
    return match.hasMatch() ? match.captured(1).trimmed() : QString();
}

// The bracketed choice of a sysfs switch ("always [madvise] never": madvise).
QString chosen(const QString &path)
{
    const QString line = firstLine(path);
    const qsizetype open = line.indexOf(u'[');
    const qsizetype close = line.indexOf(u']', open);
    return open >= 0 && close > open ? line.mid(open + 1, close - open - 1) : line;
}

// CPU frequency scaling of cpu0 (a VM often has none: said so).
QString governor()
{
    const QString value =
        firstLine(QStringLiteral("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
    return value.isEmpty() ? QStringLiteral("none (no cpufreq)") : value;
}

QString frequencyLimits()
{
    const QString base = QStringLiteral("/sys/devices/system/cpu/cpu0/cpufreq/");
    const QString low = firstLine(base + QStringLiteral("scaling_min_freq"));
    const QString high = firstLine(base + QStringLiteral("scaling_max_freq"));
    if (low.isEmpty() || high.isEmpty())
        return QStringLiteral("unknown (no cpufreq)");
    return QStringLiteral("%1-%2 MHz").arg(low.toLongLong() / 1000).arg(high.toLongLong() / 1000);
}

QString smt()
{
    const QString control = firstLine(QStringLiteral("/sys/devices/system/cpu/smt/control"));
    const QString active = firstLine(QStringLiteral("/sys/devices/system/cpu/smt/active"));
    if (control.isEmpty())
        return QStringLiteral("unknown");
    return active == u"1" ? QStringLiteral("on") : QStringLiteral("off (%1)").arg(control);
}

int numaNodes()
{
    int nodes = 0;
    for (int i = 0;
         i < 1024 && QFile::exists(QStringLiteral("/sys/devices/system/node/node%1").arg(i)); ++i)
        ++nodes;
    return std::max(nodes, 1);
}

// The CPUs this process may run on, as a list ("0-1", "0,2"): the pinning the run used, since
// its servers and clients inherit it unless a target pins itself.
QString affinity()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return QStringLiteral("unknown");
    QStringList ranges;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            ++last;
        ranges << (last == cpu ? QString::number(cpu) : QStringLiteral("%1-%2").arg(cpu).arg(last));
        cpu = last;
    }
    return ranges.join(u',');
}

// The processor's name: x86's "model name", else what other architectures call it.
QString cpuName()
{
    for (const char *key : {"model name", "Model", "cpu model", "Processor", "cpu"})
        if (const QString name = field(QStringLiteral("/proc/cpuinfo"), QLatin1StringView(key));
            !name.isEmpty())
            return name;
    return QStringLiteral("unknown");
}

} // namespace

QJsonObject machineFacts()
{
    utsname names{};
    uname(&names);
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    QJsonObject sysctls;
    for (const char *name :
         {"net/core/somaxconn", "net/ipv4/tcp_max_syn_backlog", "net/ipv4/ip_local_port_range",
          "net/ipv4/tcp_tw_reuse", "net/ipv4/tcp_fin_timeout", "net/ipv4/tcp_congestion_control",
          "net/core/rmem_max", "net/core/wmem_max", "fs/file-max", "fs/nr_open"}) {
        QString key = QString::fromLatin1(name);
        const QString value = firstLine(QStringLiteral("/proc/sys/") + key);
        sysctls.insert(key.replace(u'/', u'.'), value);
    }
    const auto limit = [](rlim_t value) {
        return value == RLIM_INFINITY ? QJsonValue(QStringLiteral("unlimited"))
                                      : QJsonValue(qint64(value));
    };
    return QJsonObject{
        {QStringLiteral("kernel"), QStringLiteral("%1 %2").arg(QString::fromLatin1(names.sysname),
                                                               QString::fromLatin1(names.release))},
        {QStringLiteral("os"), QSysInfo::prettyProductName()},
        {QStringLiteral("cpu"), cpuName()},
        {QStringLiteral("cores"), qint64(sysconf(_SC_NPROCESSORS_ONLN))},
        {QStringLiteral("cpu_affinity"), affinity()},
        {QStringLiteral("cpu_governor"), governor()},
        {QStringLiteral("cpu_frequency"), frequencyLimits()},
        {QStringLiteral("smt"), smt()},
        {QStringLiteral("numa_nodes"), numaNodes()},
        {QStringLiteral("transparent_hugepages"),
         chosen(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"))},
        {QStringLiteral("memory"),
         field(QStringLiteral("/proc/meminfo"), QStringLiteral("MemTotal"))},
        {QStringLiteral("fd_limit_soft"), limit(files.rlim_cur)},
        {QStringLiteral("fd_limit_hard"), limit(files.rlim_max)},
        {QStringLiteral("sysctls"), sysctls},
        {QStringLiteral("servelab"), QStringLiteral(SERVELAB_VERSION)},
        {QStringLiteral("qt"), QString::fromLatin1(qVersion())},
    };
}

} // namespace servelab::lab
