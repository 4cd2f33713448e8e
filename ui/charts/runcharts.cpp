// SPDX-License-Identifier: Apache-2.0
#include "runcharts.h"

#include "chartfile.h"
#include "chartrow.h"
#include "runchart.h"

#include <QChartView>
#include <QDir>

#include <algorithm>
#include <memory>

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

    const RunView run{points, points, sizes, {}};
    for (const ChartRow &row : chartRows()) {
        const std::unique_ptr<RunChart> chart(row.create());
        chart->draw(run);
        if (chart->isEmpty())
            continue;
        QChartView *view = chart->view();
        view->resize(size);
        chart->fitLegend();
        const QString name = QLatin1StringView(row.name);
        if (!chartfile::writePng(view, dir.filePath(name + QStringLiteral(".png")), error) ||
            !chartfile::writeSvg(view, dir.filePath(name + QStringLiteral(".svg")), error))
            return false;
        *written << name + QStringLiteral(".png") << name + QStringLiteral(".svg");
    }
    return true;
}

} // namespace servelab::ui
