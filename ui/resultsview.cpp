// SPDX-License-Identifier: Apache-2.0
#include "resultsview.h"

#include "chartfile.h"
#include "chartview.h"
#include "fdtypeschart.h"
#include "lab/resultexport.h"
#include "lab/resultstore.h"
#include "lab/sizelist.h"
#include "latencychart.h"
#include "pointseries.h"
#include "processchart.h"
#include "ratechart.h"
#include "resultstablemodel.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QChartView>
#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>

#include <algorithm>

namespace servelab::ui {

namespace {

QList<quint64> sizesOf(const QList<lab::PointResult> &points)
{
    QList<quint64> sizes;
    for (const auto &p : points)
        if (!sizes.contains(p.sizeBytes))
            sizes << p.sizeBytes;
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

// The start of a run on its own clock: its first point's, or its first server sample's.
std::int64_t originOf(const QList<lab::PointResult> &points)
{
    std::int64_t origin = -1;
    const auto take = [&origin](std::int64_t t) {
        if (t > 0)
            origin = origin < 0 ? t : std::min(origin, t);
    };
    for (const auto &p : points) {
        take(p.startedAtMicros);
        for (const auto &s : p.serverSamples)
            if (s.alive)
                take(s.atMicros);
    }
    return origin;
}

} // namespace

ResultsView::ResultsView(QObject *parent)
    : QObject(parent), m_chart(new ThroughputChart), m_model(new ResultsTableModel(this)),
      m_table(new QTableView), m_timeline(new TimelineChart), m_fdTypes(new FdTypesChart),
      m_latency(new LatencyChart), m_rate(new RateChart), m_process(new ProcessChart),
      m_compare(new QTableWidget(0, 5))
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ResultsTableModel::Size, Qt::AscendingOrder);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *throughput = new QSplitter(Qt::Vertical);
    throughput->addWidget(m_chart);
    throughput->addWidget(m_table);
    throughput->setStretchFactor(0, 3);
    throughput->setStretchFactor(1, 1);
    // Per point (and live) above, by type with the points' starts and EMFILE below.
    auto *fds = new QSplitter(Qt::Vertical);
    fds->addWidget(m_timeline);
    fds->addWidget(m_fdTypes);
    m_pages = {throughput, fds, m_latency, m_rate, m_process};

    m_compare->setObjectName(QStringLiteral("compare"));
    m_compare->horizontalHeader()->setStretchLastSection(true);
    m_compare->verticalHeader()->hide();
    m_compare->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_compare->setToolTip(
        tr("Overlay earlier runs from the history (right-click them) to compare"));
    fillComparison();
    for (int c = 0; c < ChartCount; ++c)
        widgetOf(Chart(c))->installEventFilter(this);
    connect(m_rate, &RateChart::measureChanged, this, [this] {
        m_stale[Rate] = true;
        refresh(Rate);
    });
}

QWidget *ResultsView::widgetOf(Chart chart) const
{
    switch (chart) {
    case Throughput: return m_chart;
    case Timeline: return m_timeline;
    case FdTypes: return m_fdTypes;
    case Latency: return m_latency;
    case Rate: return m_rate;
    case Process:
    case ChartCount: break;
    }
    return m_process;
}

bool ResultsView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Show)
        for (int c = 0; c < ChartCount; ++c)
            if (widgetOf(Chart(c)) == watched)
                refresh(Chart(c));
    return QObject::eventFilter(watched, event);
}

bool ResultsView::drawsNow(Chart chart)
{
    if (!m_stale[chart] && widgetOf(chart)->isVisible())
        return true;
    m_stale[chart] = true;
    return false;
}

void ResultsView::refresh(Chart chart) const
{
    if (!m_stale[chart])
        return;
    m_stale[chart] = false;
    const bool live = m_liveSerial != 0 && m_liveStart > m_lastFinishedStart;
    switch (chart) {
    case Throughput: {
        const QList<lab::PointResult> drawn = withOverlays();
        m_chart->setPoints(m_sizes.isEmpty() ? sizesOf(drawn) : m_sizes, drawn);
        break;
    }
    case Timeline:
        m_timeline->setPoints(withOverlays());
        if (live)
            m_timeline->setLive(m_liveTarget, m_liveFds);
        break;
    case FdTypes: m_fdTypes->setPoints(m_points); break;
    case Latency: m_latency->setPoints(withOverlays()); break;
    case Rate:
        m_rate->setPoints(withOverlays());
        if (live)
            m_rate->setLive(m_liveTarget, liveRate());
        break;
    case Process:
    case ChartCount: m_process->setPoints(m_points); break;
    }
}

ThroughputChart *ResultsView::throughput() const
{
    refresh(Throughput);
    return m_chart;
}

TimelineChart *ResultsView::timeline() const
{
    refresh(Timeline);
    return m_timeline;
}

FdTypesChart *ResultsView::fdTypes() const
{
    refresh(FdTypes);
    return m_fdTypes;
}

LatencyChart *ResultsView::latency() const
{
    refresh(Latency);
    return m_latency;
}

RateChart *ResultsView::rate() const
{
    refresh(Rate);
    return m_rate;
}

ProcessChart *ResultsView::process() const
{
    refresh(Process);
    return m_process;
}

ResultsView::~ResultsView() = default;

QList<QWidget *> ResultsView::chartPages() const
{
    return m_pages;
}

QStringList ResultsView::pageNames()
{
    return {QStringLiteral("throughput"), QStringLiteral("fds"), QStringLiteral("latency"),
            QStringLiteral("rate"), QStringLiteral("process")};
}

QStringList ResultsView::chartNames()
{
    return pageNames() << QStringLiteral("fd-types");
}

QString ResultsView::pageOf(const QString &chart)
{
    return chart == u"fd-types" ? QStringLiteral("fds") : chart;
}

const lab::RunComparison &ResultsView::comparison(qint64 id) const
{
    static const lab::RunComparison none;
    for (const auto &o : m_overlays)
        if (id == 0 || o.id == id)
            return o.comparison;
    return none;
}

QList<lab::PointResult> ResultsView::storedPoints(const QString &database, qint64 id,
                                                  QString *error)
{
    lab::ResultStore store;
    QList<lab::PointResult> points;
    if (store.open(database, error))
        points = store.points(id, error);
    if (points.isEmpty() && error->isEmpty())
        *error = tr("experiment %1 has no points in %2").arg(id).arg(database);
    for (auto &p : points)
        p = slim(p);
    return points;
}

QList<qint64> ResultsView::overlayIds() const
{
    QList<qint64> ids;
    for (const auto &o : m_overlays)
        ids << o.id;
    return ids;
}

void ResultsView::releaseViews()
{
    for (QChartView *view : {m_chart->view(), m_timeline->view(), m_fdTypes->view(),
                             m_latency->view(), m_rate->view(), m_process->view()})
        static_cast<ChartView *>(view)->release();
}

lab::PointResult ResultsView::slim(lab::PointResult point)
{
    for (auto &sample : point.clientSamples)
        sample.latency = client::LatencyHistogram();
    return point;
}

void ResultsView::begin(const QList<quint64> &sizes)
{
    m_overlays.clear();
    m_liveSerial = 0;
    m_lastFinishedStart = -1;
    show({});
    m_sizes = sizes; // the size axis holds the planned sizes from the start
    m_stale[Throughput] = true;
    if (m_chart->isVisible())
        refresh(Throughput);
}

void ResultsView::addPoint(const lab::PointResult &finished)
{
    const lab::PointResult point = slim(finished);
    m_lastFinishedStart = point.startedAtMicros;
    m_points << point;
    m_model->addPoint(point);
    // One series more where a chart draws one per point, not all of them again; a chart off
    // screen is drawn when it is shown.
    if (drawsNow(Throughput))
        m_chart->addPoint(point);
    if (drawsNow(Timeline))
        m_timeline->addPoint(point);
    if (drawsNow(Rate))
        m_rate->addPoint(point);
    if (drawsNow(FdTypes))
        m_fdTypes->addPoint(point);
    if (drawsNow(Latency))
        m_latency->setPoints(m_points);
    if (drawsNow(Process))
        m_process->setPoints(m_points);
}

QList<QPointF> ResultsView::liveRate() const
{
    constexpr qint64 period = 100'000;
    QList<QPointF> rate;
    rate.reserve(m_liveSlots.size());
    for (auto it = m_liveSlots.cbegin(); it != m_liveSlots.cend(); ++it)
        if (it->intervalMicros > 0)
            rate.append({double(m_liveStart + it.key() * period),
                         m_rate->valueOf(it->requests, it->bytes, it->intervalMicros)});
    return rate;
}

double ResultsView::applyLive(const lab::LiveFeed::Update &update)
{
    // A point whose result has arrived is drawn whole already.
    if (update.serial == 0 || update.startedAtMicros <= m_lastFinishedStart)
        return -1;
    if (update.serial != m_liveSerial) {
        m_liveSerial = update.serial;
        m_liveStart = update.startedAtMicros;
        m_liveTarget = update.target;
        m_liveFds.clear();
        m_liveSlots.clear();
    }
    if (update.client.empty() && update.server.empty())
        return -1;
    for (const auto &s : update.server)
        if (s.alive)
            m_liveFds.append({double(s.atMicros), double(s.total)});
    // The client threads sample on one 100 ms grid: a slot sums them.
    constexpr qint64 period = 100'000;
    for (const auto &t : update.client) {
        auto &slot = m_liveSlots[(t.endMicros + period / 2) / period];
        slot.requests += t.completed;
        slot.bytes += t.bytesRead;
        slot.intervalMicros = std::max<qint64>(slot.intervalMicros, t.intervalMicros);
    }
    // The status line says requests/s now, whichever measure the chart shows.
    const auto last = m_liveSlots.isEmpty() ? Slot() : m_liveSlots.last();
    const double requestsNow =
        last.intervalMicros > 0 ? double(last.requests) * 1e6 / double(last.intervalMicros) : 0;
    const QList<QPointF> rate = liveRate();
    if (drawsNow(Timeline))
        m_timeline->setLive(update.target, m_liveFds);
    if (drawsNow(Rate))
        m_rate->setLive(update.target, rate);
    return requestsNow;
}

void ResultsView::show(const QList<lab::PointResult> &points)
{
    releaseViews();
    m_points = points;
    m_sizes.clear();
    m_model->clear();
    for (const auto &p : points)
        m_model->addPoint(p);
    // Every chart drawn again, now if it is on screen. Stacked by type and the process's three
    // lines show the shown run only (another run's layers would stack on them).
    for (int c = 0; c < ChartCount; ++c) {
        m_stale[c] = true;
        if (widgetOf(Chart(c))->isVisible())
            refresh(Chart(c));
    }
    fillComparison();
}

void ResultsView::addOverlay(const QList<lab::PointResult> &points, qint64 id)
{
    Overlay overlay{id, points, lab::RunComparison::of(m_points, points)};
    const auto it = std::find_if(m_overlays.begin(), m_overlays.end(),
                                 [id](const Overlay &o) { return o.id == id; });
    if (it != m_overlays.end())
        *it = overlay;
    else
        m_overlays << overlay;
}

void ResultsView::clearOverlays()
{
    m_overlays.clear();
}

QList<lab::PointResult> ResultsView::withOverlays() const
{
    QList<lab::PointResult> all = m_points;
    const std::int64_t origin = originOf(m_points);
    for (const auto &overlay : m_overlays) {
        const std::int64_t theirs = originOf(overlay.points);
        const std::int64_t shift = origin > 0 && theirs > 0 ? origin - theirs : 0;
        for (lab::PointResult p : overlay.points) {
            p.target = overlayName(p.target, overlay.id);
            if (p.startedAtMicros > 0)
                p.startedAtMicros += shift;
            for (auto &sample : p.serverSamples)
                sample.atMicros += shift;
            all << p;
        }
    }
    return all;
}

// The ratio at each size against every overlaid run: one pair of columns per run, a row per
// target and size that any of them compares.
void ResultsView::fillComparison()
{
    m_compare->clear();
    m_compare->setRowCount(0);
    QStringList header{tr("Target"), tr("File size"), tr("KiB/s (shown)")};
    for (const auto &o : m_overlays)
        header << tr("KiB/s (#%1)").arg(o.id) << tr("Ratio to #%1").arg(o.id);
    if (m_overlays.isEmpty())
        header << tr("KiB/s (overlay)") << tr("Ratio");
    m_compare->setColumnCount(int(header.size()));
    m_compare->setHorizontalHeaderLabels(header);
    QList<std::pair<QString, quint64>> keys;
    for (const auto &o : m_overlays)
        for (const auto &row : o.comparison.rows)
            if (!keys.contains(std::pair{row.target, row.sizeBytes}))
                keys << std::pair{row.target, row.sizeBytes};
    const auto number = [](double kib) {
        return kib > 0 ? QLocale().toString(kib, 'f', 2) : tr("DNF");
    };
    for (const auto &key : keys) {
        const QString &target = key.first; // (not a structured binding: lambdas capture these)
        const quint64 size = key.second;
        const int r = m_compare->rowCount();
        m_compare->insertRow(r);
        QStringList cells{target, lab::formatSize(size), QString()};
        for (const auto &o : m_overlays) {
            const auto row = std::find_if(
                o.comparison.rows.cbegin(), o.comparison.rows.cend(),
                [&](const auto &x) { return x.target == target && x.sizeBytes == size; });
            if (row == o.comparison.rows.cend()) {
                cells << QStringLiteral("–") << QStringLiteral("–");
                continue;
            }
            cells[2] = number(row->kibThis);
            cells << number(row->kibOther)
                  << (row->dnf ? QStringLiteral("–") : QLocale().toString(row->ratio(), 'f', 3));
        }
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_compare->setItem(r, c, item);
        }
    }
}

bool ResultsView::exportChart(const QString &chart, const QString &path, QString *error,
                              qreal scale, QSize fallback, QSize size) const
{
    if (!chartNames().contains(chart)) {
        *error = tr("there is no chart '%1' (%2)").arg(chart, chartNames().join(u", "));
        return false;
    }
    QChartView *view = chart == u"fds"        ? m_timeline->view()
                       : chart == u"fd-types" ? m_fdTypes->view()
                       : chart == u"latency"  ? m_latency->view()
                       : chart == u"rate"     ? m_rate->view()
                       : chart == u"process"  ? m_process->view()
                                              : m_chart->view();
    refresh(chart == u"fds"        ? Timeline
            : chart == u"fd-types" ? FdTypes
            : chart == u"latency"  ? Latency
            : chart == u"rate"     ? Rate
            : chart == u"process"  ? Process
                                   : Throughput);
    // A chart in a tab not shown yet has no size of its own.
    if (!view->isVisible())
        view->resize(fallback);
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
               ? chartfile::writeSvg(view, path, error)
               : chartfile::writePng(view, path, error, scale, size);
}

QSize ResultsView::shownSize(const QString &chart) const
{
    return widgetOf(chart == u"fds"        ? Timeline
                    : chart == u"fd-types" ? FdTypes
                    : chart == u"latency"  ? Latency
                    : chart == u"rate"     ? Rate
                    : chart == u"process"  ? Process
                                           : Throughput)
        ->size();
}

bool ResultsView::exportChartData(const QString &chart, const QString &path, QString *error) const
{
    QString text;
    if (chart == u"throughput") {
        text = lab::formatSummaryCsv(m_points);
    } else if (chart == u"fds" || chart == u"fd-types" || chart == u"rate" || chart == u"process") {
        text = lab::formatTimelineCsv(m_points);
    } else if (chart == u"latency") {
        text = latency()->dataCsv();
    } else {
        *error = tr("there is no chart '%1' (%2)").arg(chart, chartNames().join(u", "));
        return false;
    }
    return lab::writeTextFile(path, text, error);
}

} // namespace servelab::ui
