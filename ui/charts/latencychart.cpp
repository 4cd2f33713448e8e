// SPDX-License-Identifier: Apache-2.0
#include "latencychart.h"

#include "chartframe.h"
#include "chartview.h"

#include "lab/spec/sizelist.h"
#include "pointseries.h"

#include <QBoxLayout>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QMap>
#include <QMenu>
#include <QToolButton>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace servelab::ui {

namespace {

// Where percentile p sits on the axis: its nines, log10(1 / (1 - p)).
double nines(double percentile)
{
    return std::log10(100.0 / (100.0 - percentile));
}

QString percentileLabel(int nines)
{
    if (nines == 0)
        return QStringLiteral("0%");
    return QString::number(100.0 - 100.0 / std::pow(10.0, nines), 'f', std::max(0, nines - 2)) +
           u'%';
}

} // namespace

LatencyChart::LatencyChart(QWidget *parent)
    : RunChart(tr("Latency by percentile"), parent), m_shown(new QLabel), m_sizes(new QToolButton),
      m_percentile(new QCategoryAxis), m_latency(new QValueAxis)
{
    m_sizes->setObjectName(QStringLiteral("latencySizes"));
    m_sizes->setText(tr("Sizes…"));
    m_sizes->setPopupMode(QToolButton::InstantPopup);
    m_sizes->setMenu(new QMenu(m_sizes));
    m_shown->setObjectName(QStringLiteral("latencyShown"));
    controlRow()->addWidget(m_sizes);
    controlRow()->addWidget(m_shown, 1);
    m_percentile->setTitleText(tr("Percentile"));
    m_percentile->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_latency->setTitleText(tr("Latency (ms)"));
    chart()->addAxis(m_percentile, Qt::AlignBottom);
    chart()->addAxis(m_latency, Qt::AlignLeft);
}

// The axes around the curves, unless the user holds the view (zoomed or panned).
void LatencyChart::fit()
{
    if (ChartView::isHeld(chart()))
        return;
    m_percentile->setRange(0, m_axisNines);
    m_latency->setRange(0, std::max(m_slowest * 1.1, 0.01));
    m_latency->applyNiceNumbers();
}

void LatencyChart::pickSizes(const QList<quint64> &sizes)
{
    m_picked = sizes;
    Q_EMIT drawAgain();
}

QString LatencyChart::shownText() const
{
    return m_shown->text();
}

void LatencyChart::setPoints(const QList<lab::PointResult> &points, QList<quint64> sizes)
{
    chart()->removeAllSeries();
    m_curves.clear();
    QList<quint64> measured;
    for (const auto &p : points)
        if (!p.dnf && p.load.latency.count() > 0 && !measured.contains(p.sizeBytes))
            measured << p.sizeBytes;
    std::sort(measured.begin(), measured.end());
    sizes.removeIf([&](quint64 size) { return !measured.contains(size); });
    const bool byDefault = sizes.isEmpty();
    if (byDefault && !measured.isEmpty())
        sizes = measured.size() == 1 ? measured : QList<quint64>{measured.first(), measured.last()};
    // The menu offers every size measured, the ones drawn ticked; the row says which are drawn.
    QMenu *menu = m_sizes->menu();
    menu->clear();
    for (quint64 size : measured) {
        QAction *action = menu->addAction(lab::formatSize(size));
        action->setCheckable(true);
        action->setChecked(sizes.contains(size));
        connect(action, &QAction::toggled, this, [this, menu] {
            QList<quint64> picked;
            for (QAction *a : menu->actions())
                if (a->isChecked())
                    picked << a->data().toULongLong();
            pickSizes(picked);
        });
        action->setData(QVariant::fromValue(size));
    }
    QStringList names;
    for (quint64 size : sizes)
        names << lab::formatSize(size);
    m_sizes->setEnabled(!measured.isEmpty());
    m_shown->setText(measured.isEmpty() ? tr("No latency measured yet.")
                     : byDefault && measured.size() > 2
                         ? tr("Showing %1, the smallest and largest of %2 sizes: pick others "
                              "with Sizes…")
                               .arg(names.join(tr(" and ")))
                               .arg(measured.size())
                         : tr("Showing %1 of %2 sizes measured.")
                               .arg(names.join(QStringLiteral(", ")))
                               .arg(measured.size()));
    // Repetitions of a target at a size merged, in the order the targets first appear.
    QMap<std::pair<int, quint64>, client::LatencyHistogram> merged;
    QStringList order;
    for (const auto &p : points) {
        if (p.dnf || !sizes.contains(p.sizeBytes) || p.load.latency.count() == 0)
            continue;
        if (!order.contains(p.target))
            order << p.target;
        merged[{int(order.indexOf(p.target)), p.sizeBytes}].merge(p.load.latency);
    }
    TargetPens pens = targetPens(chart(), points);
    double most = 0;
    double slowest = 0;
    for (auto it = merged.cbegin(); it != merged.cend(); ++it) {
        const auto &histogram = it.value();
        // n requests resolve percentiles down to 1/n: no deeper than log10(n) nines.
        const double deepest = std::log10(double(histogram.count()));
        QList<QPointF> curve;
        Curve data;
        for (double x = 0; x <= deepest + 1e-9; x += 0.02) {
            const double percentile = 100.0 - 100.0 / std::pow(10.0, x);
            const double ms = double(histogram.valueAtPercentile(percentile)) / 1000.0;
            curve.append({nines(percentile), ms});
            data.percentileAndMs.append({percentile, ms});
            slowest = std::max(slowest, ms);
        }
        most = std::max(most, deepest);
        // Several sizes: each curve of a target in its colour, paler for each further size.
        const QString &target = order[it.key().first];
        const QString name =
            sizes.size() > 1 ? withDetail(target, lab::formatSize(it.key().second)) : target;
        if (!pens.contains(name))
            pens.insert(name,
                        paler(penFor(chart(), target, pens), int(sizes.indexOf(it.key().second)),
                              chart()->theme() == QChart::ChartThemeDark));
        addPointSeries(chart(), m_percentile, m_latency, name, curve, pens);
        data.name = name;
        m_curves << data;
    }
    m_nines = most;
    for (const QString &label : m_percentile->categoriesLabels())
        m_percentile->remove(label);
    const int axisNines = std::max(1, int(std::ceil(most - 1e-9)));
    m_percentile->append(percentileLabel(0), 0);
    m_percentile->append(QStringLiteral("50%"), nines(50)); // the median, where eyes look first
    for (int n = 1; n <= axisNines; ++n)
        m_percentile->append(percentileLabel(n), n);
    m_axisNines = axisNines;
    m_slowest = slowest;
    fit();
}

int LatencyChart::seriesCount() const
{
    return int(chart()->series().size());
}

double LatencyChart::tailReached() const
{
    return m_nines;
}

QString LatencyChart::dataCsv(const RunView &) const
{
    QString out = QStringLiteral("series,percentile,latency_ms\n");
    for (const Curve &c : m_curves) {
        QString name = c.name;
        if (name.contains(u',') || name.contains(u'"'))
            name = u'"' + name.replace(u'"', QStringLiteral("\"\"")) + u'"';
        for (const auto &[percentile, ms] : c.percentileAndMs)
            out += QStringLiteral("%1,%2,%3\n")
                       .arg(name)
                       .arg(percentile, 0, 'f', 4)
                       .arg(ms, 0, 'f', 3);
    }
    return out;
}

} // namespace servelab::ui
