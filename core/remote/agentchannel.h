// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clocksync.h"
#include "messageframer.h"
#include "os/uniquefd.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <sys/types.h>

namespace servelab::remote {

// The coordinator's end of one agent: the connector's command (ssh, kubectl exec, ip netns
// exec, or the agent itself) run as a child whose stdin and stdout carry the agent's messages
// and whose stderr is kept for the reasons of failures. Calls block with a deadline and need
// no event loop, so the experiment thread can drive several agents.
//
// Stdin and stdout are a socket pair, not pipes: writing to an agent that died returns EPIPE
// (MSG_NOSIGNAL) instead of killing the coordinator with SIGPIPE.
class AgentChannel
{
public:
    // `name` says which agent in messages: "load agent 2 (web2)".
    explicit AgentChannel(QString name);
    ~AgentChannel();
    AgentChannel(const AgentChannel &) = delete;
    AgentChannel &operator=(const AgentChannel &) = delete;

    const QString &name() const { return m_name; }

    // Runs `argv` (argv[0] looked up in PATH). False, with the reason, when it cannot run.
    bool start(const QStringList &argv, QString *why);
    // Sends a request and waits up to timeoutMs for its answer. On an error answer, a timeout
    // or the agent's end: nothing, and *why names the agent and what happened (with the last
    // line it wrote on stderr: ssh's "Permission denied (publickey)", say).
    std::optional<QJsonObject> call(const char *method, const QJsonObject &params, int timeoutMs,
                                    QString *why);
    // Sends a request without waiting for its answer (a cancel, when every moment counts).
    bool post(const char *method, const QJsonObject &params, QString *why);
    // The notifications received so far, oldest first ({"method", "params"}).
    std::optional<QJsonObject> nextNotification();
    // For waiting on several agents at once: poll() this descriptor, then receive() what came.
    int pollFd() const { return m_io.get(); }
    // Reads what has arrived, without blocking: notifications queue up, answers to calls no
    // longer waited for are dropped. False, with the reason, when the agent is gone.
    bool receive(QString *why);
    // When a message last arrived from it (coordinator clock, ns).
    qint64 lastHeardNs() const { return m_lastHeardNs; }

    // One clock ping (method::clock), timed on this host around the call.
    std::optional<ClockSample> ping(int timeoutMs, QString *why);
    // Ends the agent: closes its stdin (an agent stops at EOF), waits up to graceMs, then
    // SIGTERM, then SIGKILL. Safe to call twice.
    void end(int graceMs = 2000);

    bool running() const { return m_pid > 0; }
    pid_t pid() const { return m_pid; }
    // What the child wrote on stderr, its last 4 KiB.
    QString stderrText() const;

private:
    bool send(const QByteArray &message, qint64 deadlineNs, QString *why);
    // Reads what arrives (messages into m_framer, stderr into m_stderr) until the deadline or
    // the first read; false when the agent ended or the deadline passed.
    bool pump(qint64 deadlineNs, QString *why);
    QString ended();
    QString lastErrorLine() const;
    // The framer's next message: an answer is returned, a notification queued; false at none.
    std::optional<QJsonObject> nextAnswer(QString *why);

    QString m_name;
    pid_t m_pid = -1;
    os::UniqueFd m_io;     // the socket: our writes are its stdin, its stdout our reads
    os::UniqueFd m_errors; // its stderr
    MessageFramer m_framer;
    QByteArray m_stderr;
    qint64 m_nextId = 1;
    int m_exitStatus = -1; // waitpid's, once reaped
    QList<QJsonObject> m_notifications;
    qint64 m_lastHeardNs = 0;
};

} // namespace servelab::remote
