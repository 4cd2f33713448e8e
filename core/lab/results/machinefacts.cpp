// SPDX-License-Identifier: Apache-2.0
#include "machinefacts.h"

#include "servelab_config.h"

#include <QFile>
#include <QRegularExpression>
#include <QSysInfo>

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
        {QStringLiteral("cpu"),
         field(QStringLiteral("/proc/cpuinfo"), QStringLiteral("model name"))},
        {QStringLiteral("cores"), qint64(sysconf(_SC_NPROCESSORS_ONLN))},
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
