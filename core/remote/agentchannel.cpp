// SPDX-License-Identifier: Apache-2.0
#include "agentchannel.h"

#include "agentprotocol.h"

#include <QJsonDocument>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace servelab::remote {

namespace {

constexpr qsizetype stderrKeptBytes = 4096;

int remainingMs(qint64 deadlineNs)
{
    const qint64 left = deadlineNs - monotonicNanos();
    return left <= 0 ? 0 : int(std::min<qint64>((left + 999'999) / 1'000'000, 60'000));
}

QString describeStatus(int status)
{
    if (WIFEXITED(status))
        return QStringLiteral("exit status %1").arg(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return QStringLiteral("signal %1 (%2)")
            .arg(WTERMSIG(status))
            .arg(QString::fromLocal8Bit(strsignal(WTERMSIG(status))));
    return QStringLiteral("status %1").arg(status);
}

} // namespace

AgentChannel::AgentChannel(QString name) : m_name(std::move(name)) {}

AgentChannel::~AgentChannel()
{
    end(500);
}

bool AgentChannel::start(const QStringList &argv, QString *why)
{
    if (argv.isEmpty()) {
        *why = QStringLiteral("%1: no command to start it").arg(m_name);
        return false;
    }
    int io[2];
    int errors[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, io) != 0) {
        *why = QStringLiteral("%1: socketpair: %2")
                   .arg(m_name, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    os::UniqueFd parentIo(io[0]);
    os::UniqueFd childIo(io[1]);
    if (pipe2(errors, O_CLOEXEC) != 0) {
        *why = QStringLiteral("%1: pipe: %2").arg(m_name, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    os::UniqueFd childErrors(errors[1]);
    m_io = std::move(parentIo);
    m_errors.reset(errors[0]);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, childIo.get(), STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, childIo.get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, childErrors.get(), STDERR_FILENO);
    // Its own process group: a Ctrl-C in the coordinator's terminal is the coordinator's to
    // handle (it ends its agents), not the connector's.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);

    std::vector<QByteArray> storage;
    for (const QString &arg : argv)
        storage.push_back(arg.toLocal8Bit());
    std::vector<char *> args;
    for (auto &arg : storage)
        args.push_back(arg.data());
    args.push_back(nullptr);
    const int result = posix_spawnp(&m_pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (result != 0) {
        m_pid = -1;
        m_io.reset();
        m_errors.reset();
        *why = QStringLiteral("%1: cannot run %2: %3")
                   .arg(m_name, argv.first(), QString::fromLocal8Bit(strerror(result)));
        return false;
    }
    fcntl(m_io.get(), F_SETFL, fcntl(m_io.get(), F_GETFL) | O_NONBLOCK);
    fcntl(m_errors.get(), F_SETFL, fcntl(m_errors.get(), F_GETFL) | O_NONBLOCK);
    return true;
}

std::optional<QJsonObject> AgentChannel::call(const char *method, const QJsonObject &params,
                                              int timeoutMs, QString *why)
{
    if (m_pid <= 0) {
        *why = QStringLiteral("%1 is not running").arg(m_name);
        return std::nullopt;
    }
    const qint64 deadline = monotonicNanos() + qint64(timeoutMs) * 1'000'000;
    const qint64 id = m_nextId++;
    if (!send(MessageFramer::frame(requestMessage(id, method, params)), deadline, why))
        return std::nullopt;
    QString problem;
    for (;;) {
        while (auto reply = nextAnswer(&problem)) {
            // Answers to calls that timed out earlier, or were posted, are not this call's.
            if (reply->value(QStringLiteral("id")).toInteger(-1) != id)
                continue;
            if (reply->contains(QStringLiteral("error"))) {
                const QJsonObject error = reply->value(QStringLiteral("error")).toObject();
                *why = QStringLiteral("%1 refused %2: %3")
                           .arg(m_name, QLatin1String(method),
                                error.value(QStringLiteral("message")).toString());
                return std::nullopt;
            }
            return reply->value(QStringLiteral("result")).toObject();
        }
        if (problem.isEmpty() && !pump(deadline, &problem) && problem.isEmpty())
            problem = QStringLiteral("%1 did not answer %2 within %3 ms")
                          .arg(m_name, QLatin1String(method))
                          .arg(timeoutMs);
        if (!problem.isEmpty()) {
            *why = problem;
            return std::nullopt;
        }
    }
}

bool AgentChannel::post(const char *method, const QJsonObject &params, QString *why)
{
    if (m_pid <= 0) {
        *why = QStringLiteral("%1 is not running").arg(m_name);
        return false;
    }
    return send(MessageFramer::frame(requestMessage(m_nextId++, method, params)),
                monotonicNanos() + 1'000'000'000, why);
}

std::optional<QJsonObject> AgentChannel::nextAnswer(QString *why)
{
    while (auto message = m_framer.next()) {
        QJsonParseError parseError;
        const QJsonObject reply = QJsonDocument::fromJson(*message, &parseError).object();
        if (parseError.error != QJsonParseError::NoError) {
            *why = QStringLiteral("%1 sent a message that is not JSON: %2")
                       .arg(m_name, parseError.errorString());
            return std::nullopt;
        }
        if (reply.contains(QStringLiteral("method")) && !reply.contains(QStringLiteral("id"))) {
            m_notifications << reply;
            continue;
        }
        if (reply.contains(QStringLiteral("result")) || reply.contains(QStringLiteral("error")))
            return reply;
    }
    if (!m_framer.error().isEmpty())
        *why = QStringLiteral("%1: %2").arg(m_name, m_framer.error());
    return std::nullopt;
}

bool AgentChannel::receive(QString *why)
{
    if (!m_io) {
        *why = QStringLiteral("%1 is not running").arg(m_name);
        return false;
    }
    QString problem;
    while (pump(monotonicNanos(), &problem)) {
    }
    // What came before an end is read all the same: an agent's last notice (its load done)
    // often comes just before it exits, in the same read as the end.
    QString malformed;
    while (malformed.isEmpty() && nextAnswer(&malformed)) {
    }
    if (problem.isEmpty())
        problem = malformed;
    if (!problem.isEmpty()) {
        *why = problem;
        return false;
    }
    return true;
}

std::optional<QJsonObject> AgentChannel::nextNotification()
{
    if (m_notifications.isEmpty())
        return std::nullopt;
    return m_notifications.takeFirst();
}

std::optional<ClockSample> AgentChannel::ping(int timeoutMs, QString *why)
{
    ClockSample sample;
    sample.sentNs = monotonicNanos();
    const auto reply = call(method::clock, {}, timeoutMs, why);
    sample.receivedNs = monotonicNanos();
    if (!reply)
        return std::nullopt;
    sample.agentNs = reply->value(QStringLiteral("monotonic_ns")).toInteger();
    return sample;
}

bool AgentChannel::send(const QByteArray &message, qint64 deadlineNs, QString *why)
{
    qsizetype written = 0;
    while (written < message.size()) {
        const ssize_t n = ::send(m_io.get(), message.constData() + written,
                                 size_t(message.size() - written), MSG_NOSIGNAL);
        if (n > 0) {
            written += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            pollfd fd{m_io.get(), POLLOUT, 0};
            const int ms = remainingMs(deadlineNs);
            if (ms == 0 || (::poll(&fd, 1, ms) == 0)) {
                *why = QStringLiteral("%1 did not take a request (its input is full)").arg(m_name);
                return false;
            }
            continue;
        }
        *why = ended();
        return false;
    }
    return true;
}

bool AgentChannel::pump(qint64 deadlineNs, QString *why)
{
    pollfd fds[2] = {{m_io.get(), POLLIN, 0}, {m_errors.get(), POLLIN, 0}};
    const nfds_t count = m_errors ? 2 : 1;
    for (;;) {
        const int ms = remainingMs(deadlineNs);
        const int ready = ::poll(fds, count, ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return false; // the deadline; the caller says so
        char buffer[65536];
        if (count == 2 && fds[1].revents) {
            const ssize_t n = ::read(m_errors.get(), buffer, sizeof buffer);
            if (n > 0) {
                m_stderr.append(buffer, n);
                if (m_stderr.size() > stderrKeptBytes)
                    m_stderr.remove(0, m_stderr.size() - stderrKeptBytes);
            } else if (n == 0 || errno != EAGAIN) {
                m_errors.reset(); // the child closed it; its messages may still come
                fds[1].fd = -1;
            }
        }
        if (fds[0].revents) {
            const ssize_t n = ::read(m_io.get(), buffer, sizeof buffer);
            if (n > 0) {
                m_framer.feed(buffer, n);
                m_lastHeardNs = monotonicNanos();
                return true;
            }
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            *why = ended();
            return false;
        }
    }
}

QString AgentChannel::ended()
{
    // Its end of the socket closed: collect what it said last and how it ended.
    if (m_errors) {
        pollfd fd{m_errors.get(), POLLIN, 0};
        char buffer[4096];
        while (::poll(&fd, 1, 200) > 0) {
            const ssize_t n = ::read(m_errors.get(), buffer, sizeof buffer);
            if (n <= 0)
                break;
            m_stderr.append(buffer, n);
        }
        m_errors.reset();
    }
    QString how = QStringLiteral("its connection closed");
    if (m_pid > 0) {
        int status = 0;
        for (int i = 0; i < 50; ++i) { // a child that closed stdout exits at once
            const pid_t done = waitpid(m_pid, &status, WNOHANG);
            if (done == m_pid) {
                m_exitStatus = status;
                m_pid = -1;
                how = QStringLiteral("it ended with %1").arg(describeStatus(status));
                break;
            }
            pollfd none{-1, 0, 0};
            ::poll(&none, 0, 10);
        }
    }
    m_io.reset();
    const QString line = lastErrorLine();
    return line.isEmpty() ? QStringLiteral("%1 is gone: %2").arg(m_name, how)
                          : QStringLiteral("%1 is gone: %2: %3").arg(m_name, how, line);
}

QString AgentChannel::lastErrorLine() const
{
    const QStringList lines = QString::fromLocal8Bit(m_stderr).split(u'\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed();
}

QString AgentChannel::stderrText() const
{
    return QString::fromLocal8Bit(m_stderr);
}

void AgentChannel::end(int graceMs)
{
    if (m_io)
        ::shutdown(m_io.get(), SHUT_WR);
    if (m_pid > 0) {
        const qint64 deadline = monotonicNanos() + qint64(graceMs) * 1'000'000;
        int status = 0;
        int signal = 0;
        for (;;) {
            const pid_t done = waitpid(m_pid, &status, WNOHANG);
            if (done == m_pid || (done < 0 && errno == ECHILD))
                break;
            if (monotonicNanos() >= deadline) {
                signal = signal == 0 ? SIGTERM : SIGKILL;
                ::kill(-m_pid, signal); // the connector's group: ssh and what it started here
                ::kill(m_pid, signal);
                if (signal == SIGKILL) {
                    waitpid(m_pid, &status, 0);
                    break;
                }
                const qint64 more = monotonicNanos() + 1'000'000'000;
                while (monotonicNanos() < more && waitpid(m_pid, &status, WNOHANG) == 0) {
                    pollfd none{-1, 0, 0};
                    ::poll(&none, 0, 10);
                }
                if (::kill(m_pid, 0) != 0)
                    break;
                continue;
            }
            pollfd none{-1, 0, 0};
            ::poll(&none, 0, 10);
        }
        m_exitStatus = status;
        m_pid = -1;
    }
    m_io.reset();
    m_errors.reset();
}

} // namespace servelab::remote
