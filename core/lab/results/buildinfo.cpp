// SPDX-License-Identifier: Apache-2.0
#include "buildinfo.h"

#include "servelab_config.h"
#include "servelab_revision.h"
#include "server/servermode.h"

#include <QtGlobal>

#include <algorithm>

namespace servelab::lab {

BuildInfo BuildInfo::current()
{
    BuildInfo info;
    info.version = QStringLiteral(SERVELAB_VERSION);
    info.revision = QStringLiteral(SERVELAB_GIT_REVISION);
    info.qtBuilt = QStringLiteral(QT_VERSION_STR);
    info.qtRunning = QString::fromLatin1(qVersion());
    info.syntaxHighlighting =
        HAVE_KSYNTAXHIGHLIGHTING
            ? QStringLiteral("KF6 SyntaxHighlighting %1")
                  .arg(QStringLiteral(SERVELAB_KF6_SYNTAX_VERSION))
            : QStringLiteral("built-in (KF6 SyntaxHighlighting was not found at build time)");
    if (!HAVE_LIBURING) {
        info.uring = QStringLiteral("not built (liburing was not found): no uring modes");
    } else {
        const auto modes = server::availableModes();
        const bool runs = std::any_of(modes.begin(), modes.end(),
                                      [](const auto &mode) { return mode.model == "uring"; });
        QString why;
        if (!runs)
            for (const auto &[mode, reason] : server::unavailableModes())
                if (mode.model == "uring")
                    why = QString::fromStdString(reason);
        info.uring = QStringLiteral("liburing %1; uring modes %2")
                         .arg(QStringLiteral(SERVELAB_LIBURING_VERSION),
                              runs ? QStringLiteral("available here")
                                   : QStringLiteral("unavailable here: ") + why);
    }
    return info;
}

QString BuildInfo::text(const QString &program) const
{
    QString qt = qtRunning;
    if (qtBuilt != qtRunning)
        qt += QStringLiteral(" (built against %1)").arg(qtBuilt);
    return QStringLiteral("%1 %2 (git %3)\n"
                          "  Qt: %4\n"
                          "  syntax highlighting: %5\n"
                          "  io_uring: %6\n")
        .arg(program, version, revision, qt, syntaxHighlighting, uring);
}

} // namespace servelab::lab
