// SPDX-License-Identifier: Apache-2.0
#include "fdtypeschart.h"

#include "chartframe.h"
#include "chartview.h"
#include "lab/results/resultexport.h"
#include "lab/spec/sizelist.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace servelab::ui {

namespace {

using Split = std::array<double, 5>; // sockets, files, pipes, anon inodes, other

Split splitOf(const metrics::ProcessSample &s)
{
    return {double(s.sockets), double(s.files), double(s.pipes), double(s.anonInodes),
            double(s.other)};
}

} // namespace

FdTypesChart::FdTypesChart(QWidget *parent)
    : RunChart(tr("Server file descriptors by type"), parent), m_time(new QValueAxis),
      m_fds(new QValueAxis), m_limit(new QLineSeries), m_starts(new QScatterSeries),
      m_emfile(new QScatterSeries), m_leaks(new QScatterSeries)
{
    addAxis(chart(), m_time, tr("Seconds since the first point"), 1, Qt::AlignBottom);
    addAxis(chart(), m_fds, tr("Open fds"), 0, Qt::AlignLeft);
    const QStringList names{tr("sockets"), tr("files"), tr("pipes"), tr("anon inodes"),
                            tr("other")};
    QLineSeries *below = nullptr;
    for (const QString &name : names) {
        auto *top = new QLineSeries(this);
        auto *area = new QAreaSeries(top, below);
        area->setName(name);
        chart()->addSeries(area);
        area->attachAxis(m_time);
        area->attachAxis(m_fds);
        // The theme's border is white (or black) around each layer; the layer's own colour,
        // darker, reads as an edge on both themes.
        area->setPen(QPen(area->brush().color().darker(130), 1));
        m_bounds << top;
        below = top;
    }
    QPen dashed(Qt::red);
    dashed.setStyle(Qt::DashLine);
    m_limit->setPen(dashed);
    m_limit->setName(tr("fd limit"));
    m_starts->setName(tr("point starts"));
    m_starts->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_starts->setMarkerSize(7);
    m_starts->setColor(neutralColour(chart()->theme() == QChart::ChartThemeDark));
    m_emfile->setName(tr("EMFILE"));
    m_emfile->setMarkerSize(12);
    m_emfile->setColor(QColor(200, 30, 30));
    m_leaks->setName(tr("left open")); // short: the legend is one line at 1280 px
    m_leaks->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_leaks->setMarkerSize(13);
    m_leaks->setColor(QColor(240, 150, 0));
    m_leaks->setBorderColor(QColor(120, 60, 0));
    for (QXYSeries *s : std::initializer_list<QXYSeries *>{m_limit, m_starts, m_emfile, m_leaks}) {
        chart()->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(m_fds);
    }
    const auto hover = [this](const QList<QString> &texts, QScatterSeries *series) {
        return [this, &texts, series](const QPointF &p, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            const auto points = series->points();
            for (int i = 0; i < points.size() && i < texts.size(); ++i)
                if (std::abs(points[i].x() - p.x()) < 1e-9)
                    QToolTip::showText(QCursor::pos(), texts[i], view());
        };
    };
    connect(m_starts, &QScatterSeries::hovered, this, hover(m_startText, m_starts));
    connect(m_emfile, &QScatterSeries::hovered, this, hover(m_emfileText, m_emfile));
    connect(m_leaks, &QScatterSeries::hovered, this, hover(m_leakText, m_leaks));
    // Five filled areas of hundreds of points each cost 15-20 ms to paint antialiased, at every
    // point of a run; their edges are steps anyway. Exports (chartfile) still antialias.
    view()->setRenderHint(QPainter::Antialiasing, false);
}

QString FdTypesChart::dataCsv(const RunView &run) const
{
    return lab::formatTimelineCsv(run.points);
}

void FdTypesChart::setPoints(const QList<lab::PointResult> &points)
{
    for (auto &top : m_tops)
        top.clear();
    m_starts->clear();
    m_emfile->clear();
    m_leaks->clear();
    m_startText.clear();
    m_emfileText.clear();
    m_leakText.clear();
    m_tunes.clear();
    m_samples = 0;
    m_origin = -1;
    m_last = {};
    m_lastTotal = 0;
    m_most = 1;
    m_end = 1;
    m_limitValue = -1;
    for (const auto &p : points)
        for (const auto &s : p.serverSamples)
            if (s.alive)
                m_origin = m_origin < 0 ? s.atMicros : std::min(m_origin, s.atMicros);
    for (const auto &p : points)
        appendPoint(p);
    fit();
}

void FdTypesChart::addPoint(const lab::PointResult &point)
{
    appendPoint(point);
    fit();
}

// The point's samples after the others (points come in time order): one append per series.
void FdTypesChart::appendPoint(const lab::PointResult &point)
{
    auto &tops = m_tops;
    double endTime = -1;
    double endTotal = 0;
    for (const auto &s : point.serverSamples) {
        if (!s.alive)
            continue;
        if (m_origin < 0)
            m_origin = s.atMicros;
        const double t = double(s.atMicros - m_origin) / 1e6;
        Split split = splitOf(s);
        if (s.byType) {
            m_last = split;
            m_lastTotal = double(s.total);
        } else if (m_lastTotal > 0) {
            for (std::size_t k = 0; k < 5; ++k) // the last split, scaled to this total
                split[k] = m_last[k] * double(s.total) / m_lastTotal;
        } else {
            split = {0, 0, 0, 0, double(s.total)}; // no split seen yet
        }
        double sum = 0;
        for (int k = 0; k < 5; ++k) {
            sum += split[std::size_t(k)];
            tops[k].append({t, sum});
        }
        m_most = std::max(m_most, double(s.total));
        m_end = std::max(m_end, t);
        m_limitValue = std::max(m_limitValue, s.fdLimit);
        ++m_samples;
        endTime = t;
        endTotal = double(s.total);
    }
    if (point.startedAtMicros <= 0 || m_origin < 0)
        return;
    for (const lab::TuneEvent &e : point.tuneEvents)
        m_tunes.add(double(e.atMicros - m_origin) / 1e6, e);
    const double t = double(point.startedAtMicros - m_origin) / 1e6;
    const QString what = tr("%1 at %2, repetition %3")
                             .arg(point.target, lab::formatSize(point.sizeBytes))
                             .arg(point.repetition + 1);
    m_starts->append(t, 0);
    m_startText << what;
    if (point.server.acceptEmfile > 0) {
        m_emfile->append(t, m_most);
        m_emfileText
            << tr("%1: the server met EMFILE %2 times").arg(what).arg(point.server.acceptEmfile);
    }
    // Descriptors the point left open, at its last sample: which ones, as lsof would list them.
    if (!point.fdsLeftOpen.isEmpty() && endTime >= 0) {
        constexpr int listed = 12;
        QStringList lines;
        for (const QString &fd : point.fdsLeftOpen.mid(0, listed))
            lines << fd.toHtmlEscaped();
        if (point.fdsLeftOpen.size() > listed)
            lines << tr("… and %1 more").arg(point.fdsLeftOpen.size() - listed);
        const bool cached = point.reason.contains(QStringLiteral("open-file cache"));
        m_leaks->append(endTime, endTotal);
        m_leakText << tr("<b>%1</b>: %2 descriptors left open after the point%3<br>%4")
                          .arg(what)
                          .arg(point.fdsLeftOpen.size())
                          .arg(cached ? tr(" (kept by the open-file cache)") : QString())
                          .arg(lines.join(QStringLiteral("<br>")));
    }
}

void FdTypesChart::fit()
{
    // Drawn with one replace() per series (appending to an area's line redraws the area once
    // per point), every k-th sample when there are more than drawLimit: the same samples in
    // every layer, so that the stack holds.
    const qsizetype n = m_tops[0].size();
    const qsizetype stride = std::max<qsizetype>(1, (n + drawLimit - 1) / drawLimit);
    for (int k = 0; k < 5; ++k) {
        if (stride == 1) {
            m_bounds[k]->replace(m_tops[k]);
            continue;
        }
        QList<QPointF> drawn;
        drawn.reserve(n / stride + 1);
        for (qsizetype i = 0; i < n; i += stride)
            drawn.append(m_tops[k][i]);
        m_bounds[k]->replace(drawn);
    }
    const bool limitInSight = m_limitValue > 0 && m_limitValue <= m_most * 4;
    double top = m_most;
    if (limitInSight) {
        m_limit->setName(tr("fd limit (%1)").arg(m_limitValue));
        m_limit->replace({{0, double(m_limitValue)}, {m_end, double(m_limitValue)}});
        top = std::max(top, double(m_limitValue));
    } else {
        m_limit->clear();
    }
    for (auto *marker : chart()->legend()->markers(m_emfile))
        marker->setVisible(m_emfile->count() > 0);
    for (auto *marker : chart()->legend()->markers(m_leaks))
        marker->setVisible(m_leaks->count() > 0);
    for (auto *marker : chart()->legend()->markers(m_limit))
        marker->setVisible(limitInSight);
    if (!ChartView::isHeld(chart())) { // else the user's zoom or pan stays
        m_time->setRange(0, m_end);
        m_time->applyNiceNumbers();
        m_fds->setRange(0, top * 1.15);
        m_fds->applyNiceNumbers();
    }
    m_tunes.draw(chart(), m_time, m_fds, m_fds->max());
}

int FdTypesChart::pointMarkers() const
{
    return int(m_starts->count());
}

int FdTypesChart::drawnCount() const
{
    return int(m_bounds[0]->count());
}

int FdTypesChart::emfileMarkers() const
{
    return int(m_emfile->count());
}

int FdTypesChart::leakMarkers() const
{
    return int(m_leaks->count());
}

QString FdTypesChart::leakText(int marker) const
{
    return m_leakText.value(marker);
}

double FdTypesChart::stackTopAt(int sample) const
{
    return sample < m_tops[4].size() ? m_tops[4][sample].y() : 0;
}

double FdTypesChart::layerTopAt(int layer, int sample) const
{
    return sample < m_tops[layer].size() ? m_tops[layer][sample].y() : 0;
}

} // namespace servelab::ui
