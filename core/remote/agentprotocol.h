// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <span>

namespace servelab::remote {

// What a coordinator and a `servelab-cli agent --stdio` say to each other: JSON-RPC 2.0
// requests and responses, one per MessageFramer frame. The first request is "hello", which
// refuses a coordinator that speaks another protocol, naming both versions. A change to a
// method's parameters or results that an older peer would misread bumps protocolVersion.
// 2: watch, watch_end; serve takes threads. 3: serve starts a child and takes its fd limit and
// flags; a tick carries the samples since the last.
inline constexpr int protocolVersion = 3;

// The methods, one row each: the agent's dispatch table and `agent --help` read these names
// (AgentSession holds the handler of each row).
struct AgentMethod
{
    const char *name;
    const char *summary;
};

namespace method {
inline constexpr char hello[] = "hello";
inline constexpr char clock[] = "clock";
inline constexpr char serve[] = "serve";
inline constexpr char stopServe[] = "stop_serve";
inline constexpr char watch[] = "watch";
inline constexpr char watchEnd[] = "watch_end";
inline constexpr char probe[] = "probe";
inline constexpr char shutdown[] = "shutdown";
inline constexpr char load[] = "load";
inline constexpr char cancel[] = "cancel";
// Notifications, from the agent: while a load runs, and when it is done.
inline constexpr char tick[] = "tick";
inline constexpr char loadDone[] = "load_done";
} // namespace method

// How often a loading agent says it is alive, and how long a silent one is given before the
// coordinator counts it lost (the "no sample for 1 s").
inline constexpr int tickMs = 250;
inline constexpr int lostAfterMs = 1000;

std::span<const AgentMethod> agentMethods();

// JSON-RPC 2.0 error codes: the standard ones, and ours from -32000 down.
namespace rpcError {
inline constexpr int parse = -32700;
inline constexpr int invalidRequest = -32600;
inline constexpr int methodNotFound = -32601;
inline constexpr int invalidParams = -32602;
inline constexpr int versionMismatch = -32001;
inline constexpr int failed = -32002; // the method ran and could not do what was asked
} // namespace rpcError

// The messages, as the bytes of their JSON (not yet framed).
QByteArray requestMessage(qint64 id, const char *method, const QJsonObject &params);
QByteArray resultMessage(const QJsonValue &id, const QJsonObject &result);
QByteArray errorMessage(const QJsonValue &id, int code, const QString &message);
QByteArray notificationMessage(const char *method, const QJsonObject &params);

// "servelab 0.1.0 (git abc1234)": what each side tells the other of its build.
QString buildName();

} // namespace servelab::remote
