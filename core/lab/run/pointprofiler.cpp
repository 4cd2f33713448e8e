// SPDX-License-Identifier: Apache-2.0
#include "pointprofiler.h"

#include "lab/spec/sizelist.h"
#include "metrics/processtreeprobe.h"
#include "os/threadname.h"
#include "profile/lockwaiters.h"
#include "profile/perfrecorder.h"
#include "profile/perfscriptreader.h"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>

namespace servelab::lab {

namespace {

// Under four frames in the median stack a flame graph is a row of leaves: say why.
constexpr int shallowDepth = 4;

void appendNote(PointProfile *p, const QString &note)
{
    p->note = p->note.isEmpty() ? note : p->note + QStringLiteral("; ") + note;
}

} // namespace

PointProfiler::PointProfiler(const ProfileRequest &request, const QString &folder)
    : m_request(request), m_folder(folder)
{}

QString PointProfiler::fileStem(const QString &target, quint64 sizeBytes)
{
    QString stem = QStringLiteral("%1-%2").arg(target, formatSize(sizeBytes));
    for (QChar &c : stem)
        if (!c.isLetterOrNumber() && c != u'-' && c != u'.')
            c = u'_';
    return stem;
}

QString PointProfiler::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/profiles/") +
           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss"));
}

void PointProfiler::profile(const QString &target, pid_t pid, bool tree, bool inProcess,
                            PointResult *point,
                            const std::function<void(PointResult *)> &load) const
{
    PointProfile &p = point->profile;
    p.requested = true;
    p.unprofiledRequestsPerSecond = point->load.requestsPerSecond();
    if (pid <= 0) {
        p.note = QStringLiteral("not profiled: no server process to attach to (name its pid)");
        return;
    }
    if (point->dnf) {
        p.note = QStringLiteral("not profiled: the point did not finish");
        return;
    }
    profile::PerfRecorder::Options options;
    options.frequency = m_request.frequency;
    options.offCpu = m_request.offCpu;
    if (options.offCpu)
        if (const QString why = profile::PerfRecorder::offCpuUnavailable(); !why.isEmpty()) {
            options.offCpu = false;
            appendNote(&p, why);
        }
    if (!QDir().mkpath(m_folder)) {
        p.note = QStringLiteral("not profiled: cannot make the folder %1").arg(m_folder);
        return;
    }
    const QString file =
        QDir(m_folder).filePath(fileStem(target, point->sizeBytes) + QStringLiteral(".perf.data"));
    std::vector<pid_t> pids{pid};
    if (tree)
        for (const pid_t child : metrics::ProcessTreeProbe::descendants(pid))
            pids.push_back(child);

    profile::PerfRecorder recorder;
    QString why;
    if (!recorder.start(pids, file, options, &why)) {
        p.note = QStringLiteral("not profiled: ") + why;
        return;
    }
    PointResult pass;
    load(&pass);
    if (!recorder.stop(&why)) {
        p.note = QStringLiteral("not profiled: ") + why;
        return;
    }
    p.requestsPerSecond = pass.load.requestsPerSecond();
    p.perfData = file;
    if (!pass.load.fatalError.empty())
        appendNote(&p, QStringLiteral("the profiled pass failed: ") +
                           QString::fromStdString(pass.load.fatalError));

    profile::PerfScriptReader reader;
    if (inProcess) // the server's threads and the lab's, not the client's
        reader.setThreadFilter(
            [](QStringView comm) { return comm != QLatin1StringView(os::ThreadName::client); });
    if (!profile::PerfRecorder::read(file, &reader, &why)) {
        appendNote(&p, QStringLiteral("the recording could not be read: ") + why);
        return;
    }
    p.onCpu = reader.onCpu().text();
    p.offCpu = reader.offCpu().text();
    if (reader.onCpu().isEmpty())
        appendNote(&p, QStringLiteral("no on-CPU samples: the server hardly ran"));
    if (const int depth = reader.onCpu().medianDepth(); depth > 0 && depth < shallowDepth)
        appendNote(&p, QStringLiteral("shallow stacks (median %1 frames): perf could not unwind "
                                      "or name the server's frames (a stripped binary: install "
                                      "its debug symbols)")
                           .arg(depth));
}

} // namespace servelab::lab
