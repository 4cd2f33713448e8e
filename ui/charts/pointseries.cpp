// SPDX-License-Identifier: Apache-2.0
#include "pointseries.h"

#include "chartframe.h"
#include "chartview.h"
#include "lab/spec/sizelist.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QRegularExpression>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace servelab::ui {

double log2Of(quint64 bytes)
{
    return std::log2(double(bytes));
}

void setSizeCategories(QCategoryAxis *axis, const QList<quint64> &sizes)
{
    for (const auto &label : axis->categoriesLabels())
        axis->remove(label);
    for (quint64 size : sizes)
        axis->append(lab::formatSize(size), log2Of(size));
    if (sizes.isEmpty()) {
        axis->setRange(12, 25);
    } else {
        axis->setStartValue(log2Of(sizes.first()) - 0.5);
        axis->setRange(log2Of(sizes.first()) - 0.5, log2Of(sizes.last()) + 0.5);
    }
}

void removeLines(QChart *chart, QList<QAbstractSeries *> *lines)
{
    for (QAbstractSeries *line : std::as_const(*lines)) {
        chart->removeSeries(line);
        delete line;
    }
    lines->clear();
}

QString hoverText(const QString &target, const QAbstractAxis *x, const QAbstractAxis *y,
                  const QPointF &p)
{
    // A category axis here is the latency chart's percentile axis, in nines.
    const QString where =
        qobject_cast<const QCategoryAxis *>(x)
            ? QStringLiteral("%1 %").arg(100.0 - 100.0 / std::pow(10.0, p.x()), 0, 'f', 3)
            : QStringLiteral("%1 s").arg(p.x(), 0, 'f', 1);
    return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5")
        .arg(target.toHtmlEscaped(), y->titleText().toHtmlEscaped())
        .arg(p.y(), 0, 'f', p.y() < 100 ? 2 : 0)
        .arg(x->titleText().toHtmlEscaped(), where);
}

QString overlayName(const QString &target, qint64 experimentId)
{
    return QStringLiteral("%1 (#%2)").arg(target).arg(experimentId);
}

QString overlaidTarget(const QString &name)
{
    static const QRegularExpression suffix(QStringLiteral("^(.*) \\(#\\d+\\)$"));
    const auto match = suffix.match(name);
    return match.hasMatch() ? match.captured(1) : QString();
}

QString withDetail(const QString &target, const QString &detail)
{
    const QString own = overlaidTarget(target);
    if (own.isEmpty())
        return QStringLiteral("%1, %2").arg(target, detail);
    return QStringLiteral("%1, %2%3").arg(own, detail, target.mid(own.size()));
}

QStringList targetOrder(const QList<lab::PointResult> &points)
{
    QStringList shown;
    QStringList overlays;
    for (const auto &p : points) {
        const QString own = overlaidTarget(p.target);
        QStringList &list = own.isEmpty() ? shown : overlays;
        if (const QString &name = own.isEmpty() ? p.target : own; !list.contains(name))
            list << name;
    }
    for (const QString &name : std::as_const(overlays))
        if (!shown.contains(name))
            shown << name;
    return shown;
}

TargetPens targetPens(const QChart *chart, const QList<lab::PointResult> &points)
{
    TargetPens pens;
    for (const QString &target : targetOrder(points))
        penFor(chart, target, pens);
    return pens;
}

QPen paler(QPen pen, int steps, bool dark)
{
    const QColor background = dark ? QColor(30, 30, 30) : QColor(Qt::white);
    const double towards = std::min(0.6, 0.3 * std::max(0, steps));
    const QColor c = pen.color();
    const auto mix = [towards](int from, int to) { return int(from + (to - from) * towards); };
    pen.setColor(QColor(mix(c.red(), background.red()), mix(c.green(), background.green()),
                        mix(c.blue(), background.blue())));
    return pen;
}

QPen penFor(const QChart *chart, const QString &target, TargetPens &pens)
{
    if (const auto it = pens.constFind(target); it != pens.constEnd())
        return *it;
    const bool dark = chart->theme() == QChart::ChartThemeDark;
    const QString own = overlaidTarget(target);
    QPen pen;
    if (!own.isEmpty()) {
        pen = penFor(chart, own, pens); // the target's colour (taking the next if it is new)
        pen.setStyle(Qt::DashLine);
    } else {
        int targets = 0; // an overlay's line takes no colour of its own
        for (auto it = pens.cbegin(); it != pens.cend(); ++it)
            targets += overlaidTarget(it.key()).isEmpty();
        pen = targetPen(targets, dark);
    }
    pens.insert(target, pen);
    return pen;
}

QLineSeries *addPointSeries(QChart *chart, QAbstractAxis *x, QAbstractAxis *y,
                            const QString &target, const QList<QPointF> &line, TargetPens &pens)
{
    auto *series = new QLineSeries;
    series->setName(target);
    series->replace(line);
    series->setPointsVisible(line.size() == 1); // a lone sample would draw nothing
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    // Values on hover, named by the axes' titles.
    QObject::connect(series, &QXYSeries::hovered, series,
                     [series, x, y](const QPointF &p, bool state) {
                         if (!state) {
                             QToolTip::hideText();
                             return;
                         }
                         QToolTip::showText(QCursor::pos(), hoverText(series->name(), x, y, p));
                     });
    series->setPen(penFor(chart, target, pens));
    // One legend entry per target: this line has it unless another line of the target shows it
    // (the one that had it may have gone: a live line replaced by its finished point).
    // Which line has it is kept on the line itself (a marker's visibility reads false while
    // the chart is not shown).
    static const char *const hasLegend = "servelabLegend";
    bool shown = false;
    for (auto *other : chart->series())
        shown = shown ||
                (other != series && other->name() == target && other->property(hasLegend).toBool());
    series->setProperty(hasLegend, !shown);
    for (auto *marker : chart->legend()->markers(series))
        marker->setVisible(!shown);
    return series;
}

void LiveSeries::update(const Chart &c, const QString &target, const QList<QPointF> &microsAndValue,
                        int limit)
{
    if (microsAndValue.isEmpty())
        return;
    if (c.origin < 0)
        c.origin = std::int64_t(microsAndValue.first().x());
    QList<QPointF> line;
    line.reserve(microsAndValue.size());
    for (const QPointF &p : microsAndValue) {
        line.append({(p.x() - double(c.origin)) / 1e6, p.y()});
        c.maxX = std::max(c.maxX, line.last().x());
        c.maxY = std::max(c.maxY, p.y());
    }
    line = decimated(line, limit);
    if (m_series && m_series->name() == target) {
        m_series->replace(line);
        m_series->setPointsVisible(line.size() == 1);
    } else {
        if (m_series) {
            c.chart->removeSeries(m_series);
            delete m_series;
        }
        m_series = addPointSeries(c.chart, c.x, c.y, target, line, c.pens);
    }
    if (ChartView::isHeld(c.chart))
        return;
    // The axes move when the line leaves them, with room to grow into: relaying out an axis's
    // labels ten times a second was most of what a live tick cost.
    if (c.maxX > c.x->max()) {
        c.x->setRange(0, c.maxX + std::max(1.0, c.maxX * 0.1));
        c.x->applyNiceNumbers();
    }
    if (c.maxY * 1.1 > c.y->max()) {
        c.y->setRange(0, c.maxY * 1.1);
        c.y->applyNiceNumbers();
    }
}

void LiveSeries::remove(QChart *chart)
{
    if (!m_series)
        return;
    chart->removeSeries(m_series);
    delete m_series;
    m_series = nullptr;
}

int LiveSeries::count() const
{
    return m_series ? int(m_series->count()) : 0;
}

QList<QPointF> decimated(const QList<QPointF> &line, int most)
{
    if (line.size() <= most || most < 4)
        return line;
    const qsizetype buckets = most / 2;
    QList<QPointF> out;
    out.reserve(most);
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype from = b * line.size() / buckets;
        const qsizetype to = (b + 1) * line.size() / buckets;
        qsizetype low = from;
        qsizetype high = from;
        for (qsizetype i = from; i < to; ++i) {
            if (line[i].y() < line[low].y())
                low = i;
            if (line[i].y() > line[high].y())
                high = i;
        }
        out << line[std::min(low, high)];
        if (low != high)
            out << line[std::max(low, high)];
    }
    return out;
}

} // namespace servelab::ui
