// SPDX-License-Identifier: Apache-2.0
#include "profilefiles.h"

#include "flamegraphview.h"
#include "lab/results/resultexport.h"
#include "lab/run/pointprofiler.h"
#include "lab/spec/sizelist.h"
#include "profile/lockwaiters.h"

#include <QDir>

namespace servelab::ui {

bool writeProfiles(const QList<lab::PointResult> &points, const QString &folder,
                   QStringList *written, QString *error)
{
    int files = 0;
    for (const lab::PointResult &point : points) {
        if (!point.profile.has())
            continue;
        if (!QDir().mkpath(folder)) {
            *error = QStringLiteral("cannot make the folder %1").arg(folder);
            return false;
        }
        const QString stem = lab::PointProfiler::fileStem(point.target, point.sizeBytes);
        const QDir dir(folder);
        const auto offCpu = profile::FoldedStacks::parse(point.profile.offCpu);
        const QString title =
            QStringLiteral("%1 at %2").arg(point.target, lab::formatSize(point.sizeBytes));
        FlameGraphView graph;
        for (const auto &[suffix, text] :
             {std::pair{QStringLiteral(".on-cpu.folded"), point.profile.onCpu},
              std::pair{QStringLiteral(".off-cpu.folded"), point.profile.offCpu}}) {
            if (!lab::writeTextFile(dir.filePath(stem + suffix), text, error))
                return false;
            ++files;
        }
        for (const auto &[suffix, stacks, what] :
             {std::tuple{QStringLiteral(".on-cpu.svg"),
                         profile::FoldedStacks::parse(point.profile.onCpu),
                         QStringLiteral("on-CPU")},
              std::tuple{QStringLiteral(".lock-waits.svg"), profile::LockWaiters::stacks(offCpu),
                         QStringLiteral("lock waits")}}) {
            if (stacks.isEmpty())
                continue;
            graph.setTree(profile::FlameTree::of(stacks), title + QStringLiteral(", ") + what);
            if (!graph.write(dir.filePath(stem + suffix), error))
                return false;
            ++files;
        }
    }
    if (files > 0)
        *written << QStringLiteral("%1 profile files in profiles/").arg(files);
    return true;
}

} // namespace servelab::ui
