// SPDX-License-Identifier: Apache-2.0
#include "throughputchart.h"

#include "chartframe.h"
#include "chartview.h"
#include "pointseries.h"

#include "chartfile.h"

#include "lab/results/bottleneck.h"
#include "lab/results/pointcost.h"
#include "lab/results/resultexport.h"
#include "lab/results/statistics.h"
#include "lab/spec/sizelist.h"

#include <QBoxLayout>
#include <QBuffer>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMap>
#include <QPen>
#include <QScatterSeries>
#include <QSet>
#include <QSignalBlocker>
#include <QToolTip>
#include <QValueAxis>

#include <cmath>

namespace servelab::ui {

namespace {

struct RateUnit
{
    double kib;
    const char *name;
};

// KiB/s as ab reports it, shown in the largest unit that keeps axis numbers readable.
RateUnit unitFor(double maxKibPerSecond)
{
    if (maxKibPerSecond >= 1024.0 * 1024.0 * 10)
        return {1024.0 * 1024.0, "GiB/s"};
    if (maxKibPerSecond >= 1024.0 * 10)
        return {1024.0, "MiB/s"};
    return {1.0, "KiB/s"};
}

} // namespace

ThroughputChart::ThroughputChart(QWidget *parent)
    : RunChart(tr("Throughput by file size"), parent), m_sizeAxis(new QCategoryAxis),
      m_rateAxis(new QValueAxis), m_logAxis(new QLogValueAxis), m_scaleBox(new QComboBox),
      m_dnf(new QScatterSeries), m_clientBound(new QScatterSeries), m_clipped(new QScatterSeries)
{
    m_logAxis->setBase(10);
    m_logAxis->setLabelFormat(QStringLiteral("%g"));
    m_logAxis->setMinorTickCount(8);
    m_scaleBox->setObjectName(QStringLiteral("throughputScale"));
    m_scaleBox->addItems({tr("Automatic (log past a decade)"), tr("Linear"), tr("Logarithmic")});
    m_scaleBox->setToolTip(tr("The KiB/s axis: logarithmic shows small and large files' rates "
                              "together"));
    controlRow()->addWidget(new QLabel(tr("Throughput axis:")));
    controlRow()->addWidget(m_scaleBox);
    controlRow()->addStretch();
    connect(m_scaleBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setScale(Scale(index)); });
    m_sizeAxis->setTitleText(tr("File size (log₂)"));
    m_sizeAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_rateAxis->setTitleText(tr("KiB/s"));
    m_rateAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_rateAxis->setMin(0);
    chart()->addAxis(m_sizeAxis, Qt::AlignBottom);
    chart()->addAxis(m_rateAxis, Qt::AlignLeft);

    m_dnf->setName(tr("DNF"));
    m_dnf->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_dnf->setMarkerSize(11);
    m_dnf->setColor(QColor(200, 30, 30));
    chart()->addSeries(m_dnf);
    m_dnf->attachAxis(m_sizeAxis);
    m_dnf->attachAxis(m_rateAxis);
    connect(m_dnf, &QScatterSeries::hovered, this,
            [this](const QPointF &p, bool state) { showHover(p, state, {}); });

    // A client-bound point's number is the client's: ringed in grey, with its own legend entry.
    m_clientBound->setName(tr("client-bound: the client's numbers"));
    m_clientBound->setMarkerSize(18);
    m_clientBound->setColor(Qt::transparent);
    m_clientBound->setBorderColor(QColor(128, 128, 128));
    m_clientBound->setPen(QPen(QColor(128, 128, 128), 2, Qt::DotLine));
    chart()->addSeries(m_clientBound);
    m_clientBound->attachAxis(m_sizeAxis);
    m_clientBound->attachAxis(m_rateAxis);

    // An interval drawn shorter than it is ends in a small triangle, named in the legend.
    m_clipped->setName(tr("interval goes on (hover the point)"));
    m_clipped->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_clipped->setMarkerSize(9);
    m_clipped->setColor(neutralColour(chart()->theme() == QChart::ChartThemeDark));
    m_clipped->setBorderColor(m_clipped->color());
    chart()->addSeries(m_clipped);
    m_clipped->attachAxis(m_sizeAxis);
    m_clipped->attachAxis(m_rateAxis);

    clear({});
}

ThroughputChart::~ThroughputChart()
{
    delete (m_log ? static_cast<QAbstractAxis *>(m_rateAxis) : m_logAxis); // not in the chart
}

void ThroughputChart::setScale(Scale scale)
{
    m_scale = scale;
    {
        const QSignalBlocker quiet(m_scaleBox);
        m_scaleBox->setCurrentIndex(int(scale));
    }
    fit();
}

QAbstractAxis *ThroughputChart::valueAxis() const
{
    return m_log ? static_cast<QAbstractAxis *>(m_logAxis) : m_rateAxis;
}

// Every series moves to the other value axis (a log axis cannot show 0: DNF marks then sit on
// its floor).
void ThroughputChart::useLogAxis(bool log)
{
    if (log == m_log)
        return;
    QAbstractAxis *from = valueAxis();
    m_log = log;
    QAbstractAxis *to = valueAxis();
    const auto series = chart()->series();
    for (QAbstractSeries *s : series)
        s->detachAxis(from);
    chart()->removeAxis(from);
    chart()->addAxis(to, Qt::AlignLeft);
    for (QAbstractSeries *s : series)
        s->attachAxis(to);
}

QString ThroughputChart::dataCsv(const RunView &run) const
{
    return lab::formatSummaryCsv(run.overlaid); // what it draws: overlays too
}

void ThroughputChart::clear(const QList<quint64> &sizes)
{
    for (auto &series : m_series) {
        chart()->removeSeries(series.line);
        chart()->removeSeries(series.markers);
        delete series.line;
        delete series.markers;
    }
    m_series.clear();
    m_pens.clear();
    m_points.clear();
    m_dnf->clear();
    m_clipped->clear();
    setSizeCategories(m_sizeAxis, sizes);
    fit();
}

ThroughputChart::Series &ThroughputChart::seriesFor(const QString &target)
{
    auto it = m_series.find(target);
    if (it != m_series.end())
        return *it;
    Series series;
    series.line = new QLineSeries;
    series.line->setName(target);
    series.markers = new QScatterSeries;
    series.markers->setMarkerSize(8);
    for (auto *s :
         {static_cast<QXYSeries *>(series.line), static_cast<QXYSeries *>(series.markers)}) {
        chart()->addSeries(s);
        s->attachAxis(m_sizeAxis);
        s->attachAxis(valueAxis());
        connect(s, &QXYSeries::hovered, this,
                [this, target](const QPointF &p, bool state) { showHover(p, state, target); });
    }
    series.line->setPen(penFor(chart(), target, m_pens));
    series.markers->setColor(series.line->color());
    series.markers->setBorderColor(series.line->color());
    // One legend entry per target: the markers share the line's colour and name.
    const auto markers = chart()->legend()->markers(series.markers);
    for (auto *marker : markers)
        marker->setVisible(false);
    return *m_series.insert(target, series);
}

void ThroughputChart::addPoint(const lab::PointResult &point)
{
    m_points.append(point.summary()); // totals are all this chart draws
    seriesFor(point.target);          // a target with only DNF points still gets its legend entry
    fit();
}

void ThroughputChart::setPoints(const QList<quint64> &sizes, const QList<lab::PointResult> &points)
{
    clear(sizes);
    m_pens = targetPens(chart(), points);
    for (const auto &point : points) {
        m_points.append(point.summary());
        seriesFor(point.target);
    }
    fit();
}

void ThroughputChart::fit()
{
    // Repetitions of a point are drawn as their mean with its 95 % confidence interval; a
    // point DNF in any of them is DNF.
    QMap<QPair<QString, quint64>, std::vector<double>> values;
    QSet<QPair<QString, quint64>> dnfPoints;
    QSet<QPair<QString, quint64>> clientBound;
    for (const auto &p : m_points) {
        const QPair<QString, quint64> key{p.target, p.sizeBytes};
        if (p.verdict ==
            QLatin1StringView(lab::Bottleneck::row(lab::Bottleneck::Kind::ClientBound).name))
            clientBound.insert(key);
        if (p.dnf)
            dnfPoints.insert(key);
        else
            values[key].push_back(p.kibPerSecond());
    }
    // An interval is drawn at most a factor of intervalReach either side of its mean: two
    // repetitions make t = 12.7, and their interval would run off the floor of a log axis and
    // stretch it by decades. A clipped end gets a mark; the tooltip gives the interval whole.
    constexpr double intervalReach = 3;
    struct Drawn
    {
        lab::Statistics st;
        double low = 0; // the interval as drawn
        double high = 0;
    };
    QMap<QPair<QString, quint64>, Drawn> stats;
    double max = 0;
    double least = 0; // the smallest mean or drawn interval end above 0
    for (auto it = values.begin(); it != values.end(); ++it) {
        if (dnfPoints.contains(it.key()))
            continue;
        Drawn &d = stats[it.key()];
        d.st = lab::Statistics::of(it.value());
        const bool interval = d.st.count > 1;
        d.low = interval ? std::max(d.st.low(), d.st.mean / intervalReach) : d.st.mean;
        d.high = interval ? std::min(d.st.high(), d.st.mean * intervalReach) : d.st.mean;
        max = std::max(max, d.high);
        // A clipped low end lowers no floor: it is drawn to the floor at most, and marked.
        for (double v : {d.st.mean, interval && d.low == d.st.low() ? d.low : d.st.mean})
            if (v > 0)
                least = least > 0 ? std::min(least, v) : v;
    }
    const RateUnit unit = unitFor(max);
    m_unit = unit.kib;
    useLogAxis(m_scale == Scale::Log ? max > 0
                                     : m_scale == Scale::Auto && least > 0 && max > 10 * least);
    const QString unitName = QString::fromLatin1(unit.name);
    m_rateAxis->setTitleText(unitName);
    m_logAxis->setTitleText(tr("%1 (log)").arg(unitName));
    // An empty chart has no numbers to show (no "0 0 1 1" ticks), and no titles without them.
    m_rateAxis->setLabelsVisible(max > 0);
    m_rateAxis->setTitleVisible(max > 0);
    m_sizeAxis->setTitleVisible(!m_sizeAxis->categoriesLabels().isEmpty());
    m_rateAxis->setLabelFormat(max / unit.kib >= 10 ? QStringLiteral("%.0f")
                                                    : QStringLiteral("%.1f"));
    double floor = 0;
    if (m_log) {
        floor = std::pow(10.0, std::floor(std::log10(least / unit.kib)));
        double top = std::pow(10.0, std::ceil(std::log10(max / unit.kib * 1.05)));
        if (!ChartView::isHeld(chart()))
            m_logAxis->setRange(floor, top > floor ? top : floor * 10);
    } else if (!ChartView::isHeld(chart())) { // else the user's zoom or pan stays
        m_rateAxis->setRange(0, max > 0 ? max / unit.kib * 1.1 : 1.0);
        m_rateAxis->applyNiceNumbers();
    }
    // Rebuild the visible points in one replace() per series: no per-sample append().
    QHash<QString, QList<QPointF>> lines;
    QList<QPointF> dnf;
    for (const auto &key : dnfPoints)
        dnf.append({log2Of(key.second), floor});
    for (auto it = stats.begin(); it != stats.end(); ++it) // ordered by target, then size
        lines[it.key().first].append({log2Of(it.key().second), it->st.mean / unit.kib});
    for (auto it = m_series.begin(); it != m_series.end(); ++it) {
        it->line->replace(lines.value(it.key()));
        it->markers->replace(lines.value(it.key()));
    }
    for (auto *bar : m_bars) {
        chart()->removeSeries(bar);
        delete bar;
    }
    m_bars.clear();
    QList<QPointF> clipped;
    for (auto it = stats.begin(); it != stats.end(); ++it) {
        if (it->st.count < 2)
            continue;
        auto *bar = new QLineSeries;
        const double x = log2Of(it.key().second);
        const double low = std::max(floor, it->low / unit.kib);
        bar->replace({{x, low}, {x, it->high / unit.kib}});
        if (it->low > it->st.low() || low > it->low / unit.kib)
            clipped.append({x, low});
        if (it->high < it->st.high())
            clipped.append({x, it->high / unit.kib});
        QPen pen(m_series.value(it.key().first).line->color());
        pen.setWidth(3);
        bar->setPen(pen);
        chart()->addSeries(bar);
        bar->attachAxis(m_sizeAxis);
        bar->attachAxis(valueAxis());
        for (auto *marker : chart()->legend()->markers(bar))
            marker->setVisible(false);
        m_bars << bar;
    }
    m_clipped->replace(clipped);
    for (auto *marker : chart()->legend()->markers(m_clipped))
        marker->setVisible(!clipped.isEmpty());
    m_dnf->replace(dnf);
    for (auto *marker : chart()->legend()->markers(m_dnf))
        marker->setVisible(!dnf.isEmpty());
    QList<QPointF> ringed;
    for (auto it = stats.begin(); it != stats.end(); ++it)
        if (clientBound.contains(it.key()))
            ringed.append({log2Of(it.key().second), it->st.mean / unit.kib});
    m_clientBound->replace(ringed);
    for (auto *marker : chart()->legend()->markers(m_clientBound))
        marker->setVisible(!ringed.isEmpty());
}

int ThroughputChart::clientBoundCount() const
{
    return int(m_clientBound->count());
}

void ThroughputChart::showHover(const QPointF &point, bool state, const QString &target)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const lab::PointResult *found = nullptr;
    for (const auto &p : m_points)
        if ((target.isEmpty() ? p.dnf : p.target == target && !p.dnf) &&
            std::abs(log2Of(p.sizeBytes) - point.x()) < 0.25)
            found = &p;
    if (!found)
        return;
    QString text = QStringLiteral("<b>%1</b> %2<br>")
                       .arg(lab::formatSize(found->sizeBytes), found->target.toHtmlEscaped());
    if (found->dnf) {
        text += tr("DNF: %1").arg(found->reason.toHtmlEscaped());
    } else {
        const auto &l = found->load;
        std::vector<double> repeated;
        for (const auto &p : m_points)
            if (p.target == found->target && p.sizeBytes == found->sizeBytes && !p.dnf)
                repeated.push_back(p.kibPerSecond());
        if (repeated.size() > 1) {
            const auto st = lab::Statistics::of(repeated);
            text += tr("mean of %1: %2 KiB/s, 95 % interval %3 … %4%5<br>")
                        .arg(st.count)
                        .arg(st.mean, 0, 'f', 2)
                        .arg(st.low(), 0, 'f', 2)
                        .arg(st.high(), 0, 'f', 2)
                        .arg(st.noisy ? tr(" (noisy: CV %1 %)").arg(st.cv * 100, 0, 'f', 1)
                                      : QString());
        }
        text += tr("%1 KiB/s<br>%2 req/s, mean %3 ms, p99 %4 ms")
                    .arg(found->kibPerSecond(), 0, 'f', 2)
                    .arg(l.requestsPerSecond(), 0, 'f', 1)
                    .arg(l.latency.mean() / 1000.0, 0, 'f', 3)
                    .arg(l.latency.valueAtPercentile(99) / 1000.0, 0, 'f', 3);
        if (!found->reason.isEmpty())
            text += QStringLiteral("<br>") + found->reason.toHtmlEscaped();
        for (const lab::PointCost *cost :
             {&lab::PointCost::serverCpu(), &lab::PointCost::clientCpu()})
            if (const QString value = cost->text(*found); !value.isEmpty())
                text += QStringLiteral("<br>%1: %2").arg(QString::fromUtf8(cost->label), value);
    }
    if (!found->verdict.isEmpty())
        text += QStringLiteral("<br><b>%1</b>: %2")
                    .arg(found->verdict.toHtmlEscaped(), found->verdictWhy.toHtmlEscaped());
    QToolTip::showText(QCursor::pos(), text, view());
}

int ThroughputChart::pointCount(const QString &target) const
{
    const auto it = m_series.find(target);
    return it == m_series.end() ? 0 : static_cast<int>(it->line->count());
}

int ThroughputChart::dnfCount() const
{
    return static_cast<int>(m_dnf->count());
}

QString ThroughputChart::valueAxisTitle() const
{
    return m_rateAxis->titleText();
}

QImage ThroughputChart::render() const
{
    return view()->grab().toImage();
}

bool ThroughputChart::exportPng(const QString &path, QString *error) const
{
    return chartfile::writePng(view(), path, error);
}

} // namespace servelab::ui
