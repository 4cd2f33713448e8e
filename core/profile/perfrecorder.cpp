// SPDX-License-Identifier: Apache-2.0
#include "perfrecorder.h"

#include "metrics/syscallcounter.h"
#include "perfscriptreader.h"

#include <QFile>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace servelab::profile {

namespace {

constexpr int ackTimeoutMs = 15000;  // perf attaching to many threads of a loaded server
constexpr int exitTimeoutMs = 60000; // writing out a large buffer

QString perfProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("perf"));
}

QString lastLines(QString text)
{
    text = text.trimmed();
    const QStringList lines = text.split(u'\n');
    return lines.mid(std::max<qsizetype>(0, lines.size() - 3)).join(QStringLiteral("; "));
}

} // namespace

PerfRecorder::PerfRecorder() = default;

PerfRecorder::~PerfRecorder()
{
    abandon();
}

QString PerfRecorder::unavailable()
{
    const QString perf = perfProgram();
    if (perf.isEmpty())
        return QStringLiteral("perf is not installed: install Debian's linux-perf to profile");
    QProcess probe;
    probe.start(perf, {QStringLiteral("--version")});
    if (!probe.waitForFinished(10000) || probe.exitStatus() != QProcess::NormalExit ||
        probe.exitCode() != 0)
        return QStringLiteral("perf does not run here (%1): install the linux-perf that matches "
                              "the running kernel")
            .arg(lastLines(QString::fromLocal8Bit(probe.readAllStandardError())));
    if (geteuid() != 0) {
        QFile paranoid(QStringLiteral("/proc/sys/kernel/perf_event_paranoid"));
        if (paranoid.open(QIODevice::ReadOnly) && paranoid.readAll().trimmed().toInt() > 1)
            return QStringLiteral("perf events are not allowed for this user "
                                  "(kernel.perf_event_paranoid > 1): run as root or set "
                                  "sysctl kernel.perf_event_paranoid=1");
    }
    return {};
}

QString PerfRecorder::offCpuUnavailable()
{
    std::string why;
    if (metrics::SyscallCounter::tracepointId(&why) < 0) // mounts tracefs when it can
        return QStringLiteral("no off-CPU profile: %1").arg(QString::fromStdString(why));
    for (const char *root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
        if (QFile::exists(QString::fromLatin1(root) + QStringLiteral("/events/sched/sched_switch")))
            return {};
    return QStringLiteral("no off-CPU profile: the kernel has no sched:sched_switch tracepoint");
}

bool PerfRecorder::start(const std::vector<pid_t> &pids, const QString &file,
                         const Options &options, QString *why)
{
    abandon();
    if (QString problem = unavailable(); !problem.isEmpty()) {
        *why = problem;
        return false;
    }
    if (!m_fifos.isValid()) {
        *why = QStringLiteral("cannot make a folder for perf's control FIFOs: %1")
                   .arg(m_fifos.errorString());
        return false;
    }
    const QByteArray control = m_fifos.filePath(QStringLiteral("control")).toLocal8Bit();
    const QByteArray ack = m_fifos.filePath(QStringLiteral("ack")).toLocal8Bit();
    ::unlink(control.constData());
    ::unlink(ack.constData());
    if (mkfifo(control.constData(), 0600) != 0 || mkfifo(ack.constData(), 0600) != 0) {
        *why = QStringLiteral("cannot make perf's control FIFOs: %1")
                   .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    // Read and write ends both here: opening does not wait for perf, and nothing blocks.
    m_control = os::UniqueFd(::open(control.constData(), O_RDWR | O_CLOEXEC));
    m_ack = os::UniqueFd(::open(ack.constData(), O_RDWR | O_CLOEXEC));
    if (!m_control || !m_ack) {
        *why = QStringLiteral("cannot open perf's control FIFOs: %1")
                   .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    QStringList args{QStringLiteral("record"),
                     QStringLiteral("--quiet"),
                     QStringLiteral("--delay=-1"), // events off until "enable"
                     QStringLiteral("--control=fifo:%1,%2")
                         .arg(QString::fromLocal8Bit(control), QString::fromLocal8Bit(ack)),
                     QStringLiteral("--freq=%1").arg(options.frequency),
                     QStringLiteral("--call-graph=dwarf,%1").arg(options.stackBytes),
                     QStringLiteral("--event=cpu-clock")};
    if (options.offCpu)
        args << QStringLiteral("--event=sched:sched_switch")
             << QStringLiteral("--filter=prev_state != 0") // blocked, not preempted
             << QStringLiteral("--switch-events");
    QStringList list;
    for (const pid_t pid : pids)
        list << QString::number(pid);
    args << QStringLiteral("--pid=%1").arg(list.join(u','))
         << QStringLiteral("--output=%1").arg(file);
    m_perf = std::make_unique<QProcess>();
    m_perf->setProcessChannelMode(QProcess::SeparateChannels);
    m_perf->setStandardOutputFile(QProcess::nullDevice());
    m_perf->start(perfProgram(), args);
    if (!m_perf->waitForStarted(10000)) {
        *why = QStringLiteral("perf did not start: %1").arg(m_perf->errorString());
        abandon();
        return false;
    }
    return command("enable", why);
}

// Writes `what` to perf's control FIFO and waits for its "ack" (or its end, with its reason).
bool PerfRecorder::command(const char *what, QString *why)
{
    const std::string line = std::string(what) + '\n';
    if (::write(m_control.get(), line.data(), line.size()) != ssize_t(line.size())) {
        *why = QStringLiteral("cannot write to perf's control FIFO: %1")
                   .arg(QString::fromLocal8Bit(std::strerror(errno)));
        abandon();
        return false;
    }
    for (int waited = 0; waited < ackTimeoutMs; waited += 100) {
        pollfd p{m_ack.get(), POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
            char reply[16] = {};
            if (::read(m_ack.get(), reply, sizeof reply - 1) > 0 &&
                std::strncmp(reply, "ack", 3) == 0)
                return true;
        }
        if (m_perf->state() == QProcess::NotRunning ||
            m_perf->waitForFinished(0)) { // perf gave up: say its words
            *why = QStringLiteral("perf stopped: %1")
                       .arg(lastLines(QString::fromLocal8Bit(m_perf->readAllStandardError())));
            abandon();
            return false;
        }
    }
    *why = QStringLiteral("perf did not answer \"%1\" within %2 s")
               .arg(QLatin1StringView(what))
               .arg(ackTimeoutMs / 1000);
    abandon();
    return false;
}

bool PerfRecorder::stop(QString *why)
{
    if (!m_perf) {
        *why = QStringLiteral("perf is not recording");
        return false;
    }
    // "stop", not SIGINT: perf raises a signal it ended on again as it exits.
    if (!command("disable", why) || !command("stop", why))
        return false;
    const bool ended = m_perf->waitForFinished(exitTimeoutMs);
    const QString errors = QString::fromLocal8Bit(m_perf->readAllStandardError());
    const bool ok =
        ended && m_perf->exitStatus() == QProcess::NormalExit && m_perf->exitCode() == 0;
    if (!ok)
        *why = QStringLiteral("perf did not finish writing: %1").arg(lastLines(errors));
    abandon();
    return ok;
}

void PerfRecorder::abandon()
{
    if (m_perf && m_perf->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_perf->processId()), SIGINT);
        if (!m_perf->waitForFinished(exitTimeoutMs)) {
            m_perf->kill();
            m_perf->waitForFinished(5000);
        }
    }
    m_perf.reset();
    m_control = {};
    m_ack = {};
}

bool PerfRecorder::read(const QString &file, PerfScriptReader *reader, QString *why)
{
    QProcess script;
    script.setProcessChannelMode(QProcess::SeparateChannels);
    // --no-inline: perf 6.1 asks addr2line for every inlined frame, tens of seconds a profile.
    script.start(perfProgram(),
                 {QStringLiteral("script"), QStringLiteral("--no-inline"),
                  QStringLiteral("--show-switch-events"), QStringLiteral("--input=%1").arg(file),
                  QStringLiteral("--fields=comm,tid,time,period,event,trace,ip,sym,dso")});
    if (!script.waitForStarted(10000)) {
        *why = QStringLiteral("perf script did not start: %1").arg(script.errorString());
        return false;
    }
    QByteArray pending;
    const auto consume = [&](bool all) {
        pending += script.readAllStandardOutput();
        qsizetype from = 0;
        for (qsizetype nl; (nl = pending.indexOf('\n', from)) >= 0; from = nl + 1)
            reader->addLine(QString::fromUtf8(pending.constData() + from, nl - from));
        pending.remove(0, from);
        if (all && !pending.isEmpty())
            reader->addLine(QString::fromUtf8(pending));
    };
    while (script.state() != QProcess::NotRunning) {
        script.waitForReadyRead(1000);
        consume(false);
    }
    consume(true);
    reader->finish();
    if (script.exitStatus() != QProcess::NormalExit || script.exitCode() != 0) {
        *why = QStringLiteral("perf script failed: %1")
                   .arg(lastLines(QString::fromLocal8Bit(script.readAllStandardError())));
        return false;
    }
    return true;
}

} // namespace servelab::profile
