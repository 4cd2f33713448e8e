// SPDX-License-Identifier: Apache-2.0
#include "isolatedserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
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
    return true;
}

std::optional<server::ServerStats> IsolatedServer::stats(int timeoutMs)
{
    if (!m_process || m_process->state() != QProcess::Running)
        return std::nullopt;
    while (m_process->canReadLine()) // what it printed before (its mode line, older stats)
        m_process->readLine();
    ::kill(static_cast<pid_t>(m_process->processId()), SIGUSR1);
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < timeoutMs) {
        if (!m_process->canReadLine() &&
            !m_process->waitForReadyRead(int(std::max<qint64>(1, timeoutMs - waited.elapsed()))))
            continue;
        const QByteArray line = m_process->readLine().trimmed();
        if (auto s = server::ServerStats::fromLine(std::string_view(line.data(), line.size())))
            return s;
    }
    return std::nullopt;
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
}

} // namespace servelab::lab
