// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "remote/hostcheck.h"
#include "remote/hostsfile.h"

#include <QTextStream>

namespace servelab::cli {

int hostsCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("hosts"),
        QStringLiteral("Checks a hosts file (the server host and the load hosts of a "
                       "distributed run): reaches each agent through its connector, shows its "
                       "version, cores and fd limits, the round trip and clock offset to it "
                       "(minimum-RTT of %1 pings, within half that round trip), and makes one GET "
                       "from every load host to a server started on the server's address. Exit "
                       "status: 0 every host ready, 1 a host is not, 2 a bad hosts file.")
            .arg(remote::HostCheck::clockPings));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("check"), QStringLiteral("The action: check."));
    p.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The hosts file (JSON)."));
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    const QStringList args = p.positionalArguments();
    if (args.value(0) != u"check")
        return cl.usageError(
            args.isEmpty()
                ? QStringLiteral("say what to do: hosts check FILE")
                : QStringLiteral("unknown action '%1': use hosts check FILE").arg(args.first()),
            err);
    if (args.size() != 2)
        return cl.usageError(QStringLiteral("hosts check takes one hosts file"), err);
    QString why;
    const auto hosts = remote::HostsFile::read(args[1], &why);
    if (!hosts)
        return cl.usageError(why, err);
    const auto rows = remote::HostCheck::run(*hosts, [&](const QString &line) {
        err << line << '\n';
        err.flush();
    });
    out << remote::HostCheck::table(rows);
    out.flush();
    for (const auto &row : rows)
        if (!row.problem.isEmpty())
            return exitFailure;
    return exitOk;
}

} // namespace servelab::cli
