// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "messageframer.h"
#include "os/uniquefd.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

class QTemporaryDir;

namespace servelab::lab {
class IsolatedServer;
}

namespace servelab::remote {

class ServerWatch;
class ShareRun;

// The agent's end (`servelab-cli agent --stdio`): reads requests from `input`, answers on
// `output`, one at a time, until the input ends or a "shutdown". It opens no socket but the
// server it is asked to run and the connections it is asked to make.
class AgentSession
{
public:
    AgentSession(int input, int output);
    ~AgentSession(); // a load still running is cancelled, a server stopped

    // Serves requests until EOF on input, a shutdown, a broken channel, or a load that ran
    // into its deadline unstopped (the coordinator is gone). Returns 0, or 1 with the reason on
    // stderr.
    int run();

    // One request's answer (its JSON, unframed): what run() does with each message. Public for
    // the tests, which drive a session without a process.
    QByteArray answer(const QByteArray &request);
    bool shutdownAsked() const { return m_shutdown; }

private:
    struct Reply
    {
        Reply(QJsonObject answer) : result(std::move(answer)) {}
        Reply(int errorCode, QString why) : code(errorCode), message(std::move(why)) {}
        std::optional<QJsonObject> result;
        int code = 0;
        QString message;
    };
    using Handler = Reply (AgentSession::*)(const QJsonObject &params);
    struct Route
    {
        const char *method;
        Handler handler;
        bool beforeHello; // allowed before the version handshake
    };
    static const Route routes[];

    Reply hello(const QJsonObject &params);
    Reply clock(const QJsonObject &params);
    Reply serve(const QJsonObject &params);
    Reply stopServe(const QJsonObject &params);
    Reply watch(const QJsonObject &params);
    Reply watchEnd(const QJsonObject &params);
    Reply probe(const QJsonObject &params);
    Reply shutdown(const QJsonObject &params);
    Reply load(const QJsonObject &params);
    Reply cancel(const QJsonObject &params);
    static Reply failure(int code, const QString &message);

    // Whole messages, from this thread or a load's: one at a time.
    bool write(const QByteArray &json);

    int m_input;
    int m_output;
    MessageFramer m_framer;
    bool m_greeted = false;
    bool m_shutdown = false;
    std::unique_ptr<QTemporaryDir> m_root;
    std::unique_ptr<lab::IsolatedServer> m_server; // a child `servelab-cli serve`
    std::unique_ptr<ServerWatch> m_watch; // of m_server, during a point
    std::mutex m_writing;
    os::UniqueFd m_wake; // a load that ran into its deadline ends the session
    std::unique_ptr<ShareRun> m_load;
};

} // namespace servelab::remote
