// SPDX-License-Identifier: Apache-2.0
#include "isolatedserver.h"

#include "controlclient.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QRegularExpression>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace servelab::lab {

namespace {
constexpr int startTimeoutMs = 10000;
constexpr int stopTimeoutMs = 5000;
constexpr int controlTimeoutMs = 2000;
} // namespace

IsolatedServer::IsolatedServer() = default;

IsolatedServer::~IsolatedServer()
{
    stop();
}

QString IsolatedServer::cliPath()
{
    const QByteArray fromEnvironment = qgetenv("SERVELAB_CLI");
    if (!fromEnvironment.isEmpty())
        return QString::fromLocal8Bit(fromEnvironment);
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("servelab-cli"));
}

qint64 IsolatedServer::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool IsolatedServer::start(const server::ServerOptions &o, int fdLimit, QString *error,
                           const QStringList &extra)
{
    stop();
    const QString cli = cliPath();
    if (!QFileInfo(cli).isExecutable()) {
        *error = QStringLiteral("cannot run an isolated server: %1 is not an executable "
                                "(set SERVELAB_CLI to servelab-cli)")
                     .arg(cli);
        return false;
    }
    QStringList arguments{
        QStringLiteral("serve"),     QStringLiteral("--root"),       QString::fromStdString(o.root),
        QStringLiteral("--host"),    QString::fromStdString(o.host), QStringLiteral("--port"),
        QString::number(o.port),     QStringLiteral("--mode"),       QString::fromStdString(o.mode),
        QStringLiteral("--threads"), QString::number(o.threads),     QStringLiteral("--fd-limit"),
        QString::number(fdLimit)};
    if (!o.tls.empty())
        arguments << QStringLiteral("--tls") << QString::fromStdString(o.tls);
    if (o.http2)
        arguments << QStringLiteral("--http2") << QStringLiteral("on");
    arguments += extra;
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(cli);
    m_process->setArguments(arguments);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // Runs in the child between fork and exec: die with the parent, whatever kills it.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process->start();
    if (!m_process->waitForStarted(startTimeoutMs)) {
        *error = QStringLiteral("cannot start %1: %2").arg(cli, m_process->errorString());
        m_process.reset();
        return false;
    }
    static const QRegularExpression listening(QStringLiteral("^listening on .*:(\\d+)$"));
    while (!m_process->canReadLine() && m_process->waitForReadyRead(startTimeoutMs)) {
    }
    const auto match = listening.match(QString::fromUtf8(m_process->readLine()).trimmed());
    if (!match.hasMatch()) {
        m_process->waitForFinished(stopTimeoutMs);
        const QString why = QString::fromUtf8(m_process->readAllStandardError()).trimmed();
        *error = why.isEmpty() ? QStringLiteral("the isolated server did not start") : why;
        stop();
        return false;
    }
    m_port = match.captured(1).toUShort();
    // Then its mode line, then where its control channel listens (stats, tuning).
    QDeadlineTimer deadline(startTimeoutMs);
    while (m_controlPath.isEmpty() && !deadline.hasExpired()) {
        if (!m_process->canReadLine() &&
            !m_process->waitForReadyRead(int(std::max<qint64>(1, deadline.remainingTime()))))
            break;
        const QString line = QString::fromUtf8(m_process->readLine()).trimmed();
        if (line.startsWith(QStringLiteral("control ")))
            m_controlPath = line.mid(8);
    }
    if (m_controlPath.isEmpty()) {
        *error = QStringLiteral("the isolated server did not say where its control socket is");
        stop();
        return false;
    }
    return true;
}

std::optional<QByteArray> IsolatedServer::ask(const QByteArray &request, QString *error)
{
    // Any thread may ask (the runner's, a tune step's, the window's): the path is set once the
    // child started and cleared once it is gone, and callers do not ask meanwhile.
    if (m_controlPath.isEmpty()) {
        *error = QStringLiteral("the isolated server is not running");
        return std::nullopt;
    }
    return ControlClient::ask(m_controlPath, request, controlTimeoutMs, error);
}

bool IsolatedServer::tune(const QStringList &assignments, QString *error)
{
    const auto reply = ask("set " + assignments.join(u' ').toUtf8(), error);
    if (!reply)
        return false;
    if (reply->startsWith("ok"))
        return true;
    *error = QString::fromUtf8(reply->startsWith("error ") ? reply->mid(6) : *reply);
    return false;
}

QStringList IsolatedServer::liveOptions()
{
    QString error;
    const auto reply = ask("get", &error);
    if (!reply || !reply->startsWith("options "))
        return {};
    return QString::fromUtf8(reply->mid(8)).split(u' ', Qt::SkipEmptyParts);
}

std::optional<server::ServerStats> IsolatedServer::stats()
{
    QString error;
    const auto line = ask("stats", &error);
    if (!line)
        return std::nullopt;
    return server::ServerStats::fromLine(std::string_view(line->data(), std::size_t(line->size())));
}

void IsolatedServer::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
        if (!m_process->waitForFinished(stopTimeoutMs)) {
            m_process->kill();
            m_process->waitForFinished(stopTimeoutMs);
        }
    }
    m_process.reset();
    m_port = 0;
    m_controlPath.clear();
}

} // namespace servelab::lab
