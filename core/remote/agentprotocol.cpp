// SPDX-License-Identifier: Apache-2.0
#include "agentprotocol.h"

#include "lab/results/buildinfo.h"

#include <QJsonDocument>

namespace servelab::remote {

namespace {

// clang-format off
const AgentMethod methods[] = {
    {method::hello,     "{protocol, version} -> the agent's protocol, version, host, cores, fd limits"},
    {method::clock,     "{} -> {monotonic_ns}: one ping of the clock-offset estimate"},
    {method::serve,     "{mode, address, port, sizes, threads, content, files, fd_limit, arguments} -> {port, path, bytes}: a built-in server on this host"},
    {method::stopServe, "{} -> {requests}: stops it, with the requests it answered"},
    {method::watch,     "{} -> {started_ns}: starts sampling the server for a point (fds, threads, CPU, leaks)"},
    {method::watchEnd,  "{} -> {point, started_ns}: the server's part of the point: samples, fds left open, counts"},
    {method::probe,     "{host, port, path, bytes} -> {ok, micros, error}: one GET from this host"},
    {method::load,      "{spec, size, host, port, start_at_ns, deadline_ns} -> {accepted}: a share of a point, then load_done"},
    {method::cancel,    "{} -> {}: stops the load now (load_done follows)"},
    {method::shutdown,  "{} -> {}: the agent answers, then exits"},
};
// clang-format on

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

std::span<const AgentMethod> agentMethods()
{
    return methods;
}

QByteArray requestMessage(qint64 id, const char *method, const QJsonObject &params)
{
    return compact({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), id},
                    {QStringLiteral("method"), QLatin1String(method)},
                    {QStringLiteral("params"), params}});
}

QByteArray resultMessage(const QJsonValue &id, const QJsonObject &result)
{
    return compact({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), id},
                    {QStringLiteral("result"), result}});
}

QByteArray errorMessage(const QJsonValue &id, int code, const QString &message)
{
    return compact({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("id"), id},
                    {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code},
                                                          {QStringLiteral("message"), message}}}});
}

QByteArray notificationMessage(const char *method, const QJsonObject &params)
{
    return compact({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("method"), QLatin1String(method)},
                    {QStringLiteral("params"), params}});
}

QString buildName()
{
    const auto info = lab::BuildInfo::current();
    return QStringLiteral("servelab %1 (git %2)").arg(info.version, info.revision);
}

} // namespace servelab::remote
