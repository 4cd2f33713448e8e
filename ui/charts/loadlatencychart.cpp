// SPDX-License-Identifier: Apache-2.0
#include "loadlatencychart.h"

#include "chartview.h"
#include "lab/spec/sizelist.h"
#include "pointseries.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace servelab::ui {

namespace {

struct Percentile
{
    const char *name;
    double lab::LoadLatencyPoint::*ms;
    Qt::PenStyle style;
};

// Solid where eyes look first (p99), the others told apart by their dashes.
constexpr Percentile percentiles[] = {
    {"p50", &lab::LoadLatencyPoint::p50Ms, Qt::DotLine},
    {"p90", &lab::LoadLatencyPoint::p90Ms, Qt::DashDotLine},
    {"p99", &lab::LoadLatencyPoint::p99Ms, Qt::SolidLine},
    {"p99.9", &lab::LoadLatencyPoint::p999Ms, Qt::DashLine},
};

// A log axis takes no zero: a latency under 1 µs is drawn at 1 µs.
constexpr double floorMs = 0.001;

void hideFromLegend(QAbstractSeries *series)
{
    for (QLegendMarker *marker : series->chart()->legend()->markers(series))
        marker->setVisible(false);
}

QString curveName(const lab::LoadLatencyCurve &c, bool withSize)
{
    return withSize ? withDetail(c.target, lab::formatSize(c.sizeBytes)) : c.target;
}

} // namespace

LoadLatencyChart::LoadLatencyChart(QWidget *parent)
    : RunChart(tr("Latency against offered load"), parent), m_offered(new QValueAxis),
      m_latency(new QLogValueAxis), m_achieved(new QValueAxis)
{
    m_offered->setTitleText(tr("Offered rate (requests/s)"));
    m_offered->setLabelFormat(QStringLiteral("%.0f"));
    m_latency->setTitleText(tr("Corrected latency (ms, log)"));
    m_latency->setBase(10);
    m_latency->setLabelFormat(QStringLiteral("%g"));
    m_latency->setMinorTickCount(8);
    m_achieved->setTitleText(tr("Achieved rate (requests/s)"));
    m_achieved->setLabelFormat(QStringLiteral("%.0f"));
    chart()->addAxis(m_offered, Qt::AlignBottom);
    chart()->addAxis(m_latency, Qt::AlignLeft);
    chart()->addAxis(m_achieved, Qt::AlignRight);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // the ▲ as a triangle
}

void LoadLatencyChart::draw(const RunView &run)
{
    chart()->removeAllSeries();
    m_curves = lab::loadLatencyCurves(run.overlaid);
    QStringList sizes;
    for (const auto &c : m_curves)
        if (!sizes.contains(lab::formatSize(c.sizeBytes)))
            sizes << lab::formatSize(c.sizeBytes);
    const bool withSize = sizes.size() > 1;
    TargetPens pens = targetPens(chart(), run.overlaid);
    auto *saturation = new QScatterSeries;
    saturation->setName(tr("saturation"));
    saturation->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    saturation->setMarkerSize(14);
    saturation->setColor(Qt::gray);
    saturation->setBorderColor(Qt::gray);
    for (const auto &c : m_curves) {
        const QString name = curveName(c, withSize);
        // The target's colour; paler for each further size when there are several.
        const QPen pen =
            paler(penFor(chart(), c.target, pens), int(sizes.indexOf(lab::formatSize(c.sizeBytes))),
                  chart()->theme() == QChart::ChartThemeDark);
        for (const Percentile &p : percentiles) {
            auto *line = new QLineSeries;
            line->setName(QStringLiteral("%1 %2").arg(name, QLatin1String(p.name)));
            const bool inLegend = p.style == Qt::SolidLine; // the p99 line names the target
            for (const auto &point : c.points)
                line->append(point.offered, std::max(floorMs, point.*(p.ms)));
            QPen styled = pen;
            styled.setStyle(p.style);
            line->setPen(styled);
            chart()->addSeries(line);
            line->attachAxis(m_offered);
            line->attachAxis(m_latency);
            if (inLegend)
                line->setName(name);
            else
                hideFromLegend(line);
        }
        auto *achieved = new QLineSeries;
        achieved->setName(tr("%1 achieved").arg(name));
        for (const auto &point : c.points)
            achieved->append(point.offered, point.achieved);
        QPen thin = pen;
        thin.setWidthF(std::max(1.0, pen.widthF() / 2));
        achieved->setPen(thin);
        achieved->setPointsVisible(true);
        chart()->addSeries(achieved);
        achieved->attachAxis(m_offered);
        achieved->attachAxis(m_achieved);
        hideFromLegend(achieved);
        if (c.saturatedAt >= 0) { // in the target's colour; the legend has one grey entry
            const auto &at = c.points[c.saturatedAt];
            auto *marker = new QScatterSeries;
            marker->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
            marker->setMarkerSize(14);
            marker->setColor(pen.color());
            marker->setBorderColor(pen.color());
            marker->append(at.offered, std::max(floorMs, at.p99Ms));
            chart()->addSeries(marker);
            marker->attachAxis(m_offered);
            marker->attachAxis(m_latency);
            hideFromLegend(marker);
        }
    }
    if (m_curves.isEmpty()) {
        chart()->setTitle(tr("Latency against offered load — run the rate client over several "
                             "offered rates (\"rates\": [1000, 2000, …]) to fill it"));
        delete saturation;
    } else {
        // The key to the lines, and the rule, which the legend's short entries cannot hold.
        chart()->setTitle(tr("Latency against offered load<br><small>corrected p50 dotted, p90 "
                             "dash-dot, p99 solid, p99.9 dashed; achieved rate thin, right axis; "
                             "▲ %1</small>")
                              .arg(lab::LoadLatencyCurve::rule().toHtmlEscaped()));
        chart()->addSeries(saturation);
        saturation->attachAxis(m_offered);
        saturation->attachAxis(m_latency);
    }
    fit();
}

void LoadLatencyChart::fit()
{
    if (ChartView::isHeld(chart()))
        return;
    double most = 1;
    double fastest = 1e9;
    double slowest = floorMs;
    double achieved = 1;
    for (const auto &c : m_curves)
        for (const auto &p : c.points) {
            most = std::max(most, p.offered);
            achieved = std::max(achieved, p.achieved);
            fastest = std::min(fastest, std::max(floorMs, p.p50Ms));
            slowest = std::max(slowest, p.p999Ms);
        }
    setRoundRange(m_offered, most);
    // Whole decades around the latencies, so the log axis labels read 0.1, 1, 10 …
    // (a hair under the lowest decade, or its label may fall off the axis).
    const double low = 0.999 * std::pow(10.0, std::floor(std::log10(std::min(fastest, slowest))));
    const double high = std::pow(10.0, std::ceil(std::log10(slowest * 1.01)));
    m_latency->setRange(low, std::max(high, low * 10));
    setRoundRange(m_achieved, std::max(most, achieved));
    // An empty chart has no numbers to show (no "0 1 1 2" ticks).
    for (QAbstractAxis *axis :
         {static_cast<QAbstractAxis *>(m_offered), static_cast<QAbstractAxis *>(m_latency),
          static_cast<QAbstractAxis *>(m_achieved)})
        axis->setLabelsVisible(!m_curves.isEmpty());
}

QString LoadLatencyChart::dataCsv(const RunView &) const
{
    QString out = QStringLiteral("target,size_bytes,offered_per_s,achieved_per_s,p50_ms,p90_ms,"
                                 "p99_ms,p999_ms,saturation_point\n");
    for (const auto &c : m_curves) {
        QString name = c.target;
        if (name.contains(u',') || name.contains(u'"'))
            name = u'"' + name.replace(u'"', QStringLiteral("\"\"")) + u'"';
        for (int i = 0; i < c.points.size(); ++i) {
            const auto &p = c.points[i];
            out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9\n")
                       .arg(name)
                       .arg(c.sizeBytes)
                       .arg(p.offered, 0, 'f', 2)
                       .arg(p.achieved, 0, 'f', 2)
                       .arg(p.p50Ms, 0, 'f', 3)
                       .arg(p.p90Ms, 0, 'f', 3)
                       .arg(p.p99Ms, 0, 'f', 3)
                       .arg(p.p999Ms, 0, 'f', 3)
                       .arg(i == c.saturatedAt ? 1 : 0);
        }
    }
    return out;
}

} // namespace servelab::ui
