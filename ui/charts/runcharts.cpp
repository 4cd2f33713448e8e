// SPDX-License-Identifier: Apache-2.0
#include "runcharts.h"

#include "chartfile.h"
#include "fdtypeschart.h"
#include "latencychart.h"
#include "processchart.h"
#include "ratechart.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QChartView>
#include <QDir>

#include <algorithm>

namespace servelab::ui {

bool writeRunCharts(const QList<lab::PointResult> &points, const QString &folder,
                    QStringList *written, QString *error)
{
    const QSize size(1200, 700);
    const QDir dir(folder);
    QList<quint64> sizes;
    for (const auto &p : points)
        if (!sizes.contains(p.sizeBytes))
            sizes << p.sizeBytes;
    std::sort(sizes.begin(), sizes.end());

    ThroughputChart throughput;
    throughput.clear(sizes);
    for (const auto &p : points)
        throughput.addPoint(p);
    TimelineChart fds;
    fds.setPoints(points);
    FdTypesChart fdTypes;
    fdTypes.setPoints(points);
    LatencyChart latency;
    latency.setPoints(points);
    RateChart rate;
    rate.setPoints(points);
    ProcessChart process;
    process.setPoints(points);
    for (const auto &[name, chart] : {std::pair{QStringLiteral("throughput"), throughput.view()},
                                      std::pair{QStringLiteral("fds"), fds.view()},
                                      std::pair{QStringLiteral("fd-types"), fdTypes.view()},
                                      std::pair{QStringLiteral("latency"), latency.view()},
                                      std::pair{QStringLiteral("rate"), rate.view()},
                                      std::pair{QStringLiteral("process"), process.view()}}) {
        chart->resize(size);
        if (!chartfile::writePng(chart, dir.filePath(name + QStringLiteral(".png")), error) ||
            !chartfile::writeSvg(chart, dir.filePath(name + QStringLiteral(".svg")), error))
            return false;
        *written << name + QStringLiteral(".png") << name + QStringLiteral(".svg");
    }
    return true;
}

} // namespace servelab::ui
