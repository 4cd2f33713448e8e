// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "os/uniquefd.h"
#include "remote/agentprotocol.h"
#include "remote/agentsession.h"

#include <QTextStream>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace servelab::cli {

int agentCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QString methods;
    for (const auto &m : remote::agentMethods())
        methods += QStringLiteral("\n  %1 %2")
                       .arg(QLatin1String(m.name), -11)
                       .arg(QLatin1String(m.summary));
    CommandLine cl(
        QStringLiteral("agent"),
        QStringLiteral("One agent of a distributed run, started by the coordinator through ssh "
                       "(or kubectl exec, ip netns exec): JSON-RPC 2.0 requests on stdin, "
                       "answers on stdout, each framed by a Content-Length header; logs on "
                       "stderr. It ends at the end of its input. Protocol %1; methods:%2")
            .arg(remote::protocolVersion)
            .arg(methods));
    cl.parser().addOption({QStringLiteral("stdio"),
                           QStringLiteral("Speak the protocol over stdin and stdout (required: "
                                          "agents open no listening socket).")});
    int code = exitOk;
    if (!cl.parseOptions(arguments, out, err, &code))
        return code;
    if (!cl.parser().isSet(QStringLiteral("stdio")))
        return cl.usageError(QStringLiteral("an agent speaks over stdin and stdout only: run "
                                            "`servelab-cli agent --stdio` (hosts files and "
                                            "`hosts check` start it for you)"),
                             err);
    // The protocol gets its own descriptor; stdout becomes stderr, so that a stray print
    // anywhere in the engine lands in the log instead of corrupting a message.
    const os::UniqueFd protocol(fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3));
    if (!protocol || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        err << "servelab-cli agent: cannot set up its output\n";
        return exitFailure;
    }
    std::signal(SIGPIPE, SIG_IGN); // a coordinator that went away is a write error, not a death
    remote::AgentSession session(STDIN_FILENO, protocol.get());
    const int status = session.run();
    return status == 0 ? exitOk : exitFailure;
}

} // namespace servelab::cli
