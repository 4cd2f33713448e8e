// SPDX-License-Identifier: Apache-2.0
#include "serveroptionsparser.h"

#include "commandline.h"

#include "lab/spec/serveroptiontable.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

namespace servelab::cli {

void addServerOptions(CommandLine &commandLine)
{
    const server::ServerOptions defaults;
    auto &parser = commandLine.parser();
    // The mode is the target's, not one of its options (a spec names it as "builtin").
    parser.addOption(QCommandLineOption(
        QStringLiteral("mode"),
        QStringLiteral("Server mode, model+transfer (available: %1). Default: %2.")
            .arg(QString::fromStdString(server::availableModeList()),
                 QString::fromStdString(defaults.mode)),
        QStringLiteral("mode"), QString::fromStdString(defaults.mode)));
    for (const auto &row : lab::ServerOptionTable::rows()) {
        const QString value = row.text(defaults);
        parser.addOption(QCommandLineOption(QString::fromLatin1(row.name),
                                            QString::fromUtf8(row.help) +
                                                QStringLiteral(" Default: %1.").arg(value) +
                                                (row.fixed ? QStringLiteral(" Fixed while it "
                                                                            "serves (tune).")
                                                           : QString()),
                                            QString::fromLatin1(row.syntax), value));
    }
}

bool readServerOptions(CommandLine &cl, server::ServerOptions *o, QTextStream &err)
{
    const auto &p = cl.parser();
    o->mode = p.value(QStringLiteral("mode")).toStdString();
    QString error;
    for (const auto &row : lab::ServerOptionTable::rows()) {
        const QString name = QString::fromLatin1(row.name);
        if (!lab::ServerOptionTable::set(o, name, p.value(name), &error)) {
            cl.usageError(error, err);
            return false;
        }
    }
    if (!lab::ServerOptionTable::check(*o, &error)) {
        cl.usageError(error, err);
        return false;
    }
    return true;
}

} // namespace servelab::cli
