// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace servelab::lab {

// The real servers ServeLab has a template for, one row each (servertemplate.cpp): the binaries
// that run it, the Debian packages that bring it, how it says its version, whether it serves
// https. A spec's target names are checked against it, the wizard lists it, the bundle records
// the versions, and ExternalServer (lab/targets/) writes and launches the templates.
class ServerTemplate
{
public:
    // "nginx", "lighttpd", "apache", "h2o", "tomcat", "tomcat-nosendfile".
    static QStringList names();
    // The binary a template runs, or an empty string when it is not installed.
    static QString binaryFor(const QString &name);
    // What an installed template's binary says its version is ("nginx version: nginx/1.22.1"),
    // its first line; empty when it is not installed. Runs it (up to 10 s): once per run.
    static QString versionOf(const QString &name);
    // The Debian packages that bring a template ("tomcat10 default-jre-headless"); "" if none.
    static QString packagesFor(const QString &name);
    // For a template not installed here: what to do, with the Debian packages ("tomcat is not
    // installed on this machine, …: install it (apt-get install tomcat10 …) or remove the
    // target"); empty otherwise (installed, or not a template).
    static QString notInstalled(const QString &target);
    // Whether the template serves https (ExternalServer::setTls).
    static bool takesTls(const QString &name);
    // Why the template speaks no HTTP/2 (h2c, h2), for a refusal; empty when it does.
    static QString noHttp2(const QString &name);
    // Those that do, for a refusal: "nginx, lighttpd, apache and h2o".
    static QString withTls();
    // Tomcat's two templates run Debian's tomcat10 (TOMCAT_HOME or CATALINA_HOME elsewhere).
    static bool isTomcat(const QString &name);
    static QString tomcatHome();
};

} // namespace servelab::lab
