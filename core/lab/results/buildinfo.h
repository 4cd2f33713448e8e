// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace servelab::lab {

// What this build of ServeLab is and can do, for `--version` and the About box: the version
// and git revision, the Qt it was built against and runs with, and its optional parts (KF6
// SyntaxHighlighting, liburing and whether this kernel lets the uring modes run).
struct BuildInfo
{
    QString version;            // "0.1.0"
    QString revision;           // git describe of the source, "unknown" outside a checkout
    QString qtBuilt;            // QT_VERSION_STR
    QString qtRunning;          // qVersion()
    QString syntaxHighlighting; // "KF6 SyntaxHighlighting 6.13.0" or the fallback's name
    QString uring;              // liburing's version and whether io_uring runs here

    static BuildInfo current();
    // "servelab-cli 0.1.0 (git 6be0d45)" then one "  name: value" line per part.
    QString text(const QString &program) const;
};

} // namespace servelab::lab
