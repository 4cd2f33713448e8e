// SPDX-License-Identifier: Apache-2.0
#include "servertemplate.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include <array>

namespace servelab::lab {

namespace {

struct TemplateRow
{
    const char *name;
    std::array<const char *, 2> binaries; // the first found runs it; nullptr: no second name
    const char *packages;
    const char *versionFlag; // what makes the binary say its version; nullptr: Tomcat's way
    bool https;
    const char *noHttp2; // why its template speaks no HTTP/2; nullptr: h2c and h2 (ALPN)
};

// clang-format off
constexpr std::array templateRows{
    TemplateRow{"nginx", {"nginx", nullptr}, "nginx", "-v", true, nullptr},
    TemplateRow{"lighttpd", {"lighttpd", nullptr}, "lighttpd", "-v", true, nullptr},
    TemplateRow{"apache", {"apache2", "httpd"}, "apache2", "-v", true,
                "apache runs the prefork MPM (as the seeds ran it), under which mod_http2 does "
                "not serve"},
    TemplateRow{"h2o", {"h2o", nullptr}, "h2o", "--version", true, nullptr},
    // The JVM that runs Tomcat, when Tomcat 10 is there to run: its NIO connector with
    // useSendfile="true" (seed 001's port 8004, Coyote NIO) and "false" (8005, NIO w/o sendfile).
    TemplateRow{"tomcat", {"java", nullptr}, "tomcat10 default-jre-headless", nullptr, false,
                "the tomcat templates' NIO connector has no HTTP/2 (Http2Protocol) set up"},
    TemplateRow{"tomcat-nosendfile", {"java", nullptr}, "tomcat10 default-jre-headless", nullptr,
                false, "the tomcat templates' NIO connector has no HTTP/2 (Http2Protocol) set up"},
};
// clang-format on

const TemplateRow *findTemplate(const QString &name)
{
    for (const TemplateRow &row : templateRows)
        if (name == QLatin1StringView(row.name))
            return &row;
    return nullptr;
}

QString findTemplateBinary(const QStringList &names)
{
    const QStringList paths{QStringLiteral("/usr/sbin"), QStringLiteral("/usr/local/sbin"),
                            QStringLiteral("/usr/bin"), QStringLiteral("/usr/local/bin")};
    for (const auto &name : names) {
        QString found = QStandardPaths::findExecutable(name);
        if (found.isEmpty())
            found = QStandardPaths::findExecutable(name, paths);
        if (!found.isEmpty())
            return found;
    }
    return {};
}

} // namespace

QStringList ServerTemplate::names()
{
    QStringList names;
    for (const TemplateRow &row : templateRows)
        names << QLatin1StringView(row.name);
    return names;
}

QString ServerTemplate::binaryFor(const QString &name)
{
    const TemplateRow *row = findTemplate(name);
    if (!row)
        return {};
    if (isTomcat(name) && !QFileInfo::exists(tomcatHome() + QStringLiteral("/bin/bootstrap.jar")))
        return {};
    QStringList binaries;
    for (const char *binary : row->binaries)
        if (binary)
            binaries << QLatin1StringView(binary);
    return findTemplateBinary(binaries);
}

QString ServerTemplate::versionOf(const QString &name)
{
    const TemplateRow *row = findTemplate(name);
    const QString binary = binaryFor(name);
    if (!row || binary.isEmpty())
        return {};
    // Tomcat says its version through a class of its own jar, run by the JVM that runs it.
    const QStringList arguments =
        row->versionFlag
            ? QStringList{QLatin1StringView(row->versionFlag)}
            : QStringList{QStringLiteral("-cp"), tomcatHome() + QStringLiteral("/lib/catalina.jar"),
                          QStringLiteral("org.apache.catalina.util.ServerInfo")};
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(binary, arguments);
    if (!process.waitForFinished(10000)) {
        process.kill();
        process.waitForFinished(1000);
        return QStringLiteral("unknown (%1 did not say within 10 s)").arg(binary);
    }
    const QStringList lines = QString::fromLocal8Bit(process.readAll()).split(u'\n');
    for (const QString &line : lines)
        if (row->versionFlag ? !line.trimmed().isEmpty()
                             : line.startsWith(QStringLiteral("Server version")))
            return line.trimmed();
    return QStringLiteral("unknown");
}

QString ServerTemplate::packagesFor(const QString &name)
{
    const TemplateRow *row = findTemplate(name);
    return row ? QLatin1StringView(row->packages) : QString();
}

QString ServerTemplate::notInstalled(const QString &target)
{
    const TemplateRow *row = findTemplate(target);
    if (!row || !binaryFor(target).isEmpty())
        return {};
    return QStringLiteral("%1 is not installed on this machine, so its points would be DNF: "
                          "install it (apt-get install %2) or remove the target")
        .arg(target, QLatin1StringView(row->packages));
}

bool ServerTemplate::takesTls(const QString &name)
{
    const TemplateRow *row = findTemplate(name);
    return row && row->https;
}

QString ServerTemplate::noHttp2(const QString &name)
{
    const TemplateRow *row = findTemplate(name);
    return row && row->noHttp2 ? QString::fromUtf8(row->noHttp2) : QString();
}

QString ServerTemplate::withTls()
{
    QStringList names;
    for (const TemplateRow &row : templateRows)
        if (row.https)
            names << QLatin1StringView(row.name);
    const QString last = names.isEmpty() ? QString() : names.takeLast();
    return names.isEmpty() ? last
                           : names.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

bool ServerTemplate::isTomcat(const QString &name)
{
    return name == u"tomcat" || name == u"tomcat-nosendfile";
}

QString ServerTemplate::tomcatHome()
{
    for (const char *name : {"TOMCAT_HOME", "CATALINA_HOME"})
        if (const QString home = qEnvironmentVariable(name); !home.isEmpty())
            return home;
    return QStringLiteral("/usr/share/tomcat10");
}

} // namespace servelab::lab
