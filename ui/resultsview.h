// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/livefeed.h"
#include "lab/pointresult.h"
#include "lab/runcomparison.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QPointF>
#include <QSize>

#include <array>

class QTableView;
class QTableWidget;
class QWidget;

namespace servelab::ui {

class FdTypesChart;
class LatencyChart;
class ProcessChart;
class RateChart;
class ResultsTableModel;
class ThroughputChart;
class TimelineChart;

// What the window shows of an experiment: the charts, the seed's table and the comparison with
// an overlaid run, fed point by point during a run (and live within the point) or all at once
// for a finished one; and their exports. The window puts its pages in tabs.
// Only the charts on screen are drawn as points and live samples arrive: one that is not (a
// tab not shown) is marked stale and drawn whole when it is shown, or when asked for (the
// getters below, exports), so that a run costs the GUI thread what the user looks at.
class ResultsView : public QObject
{
    Q_OBJECT
public:
    explicit ResultsView(QObject *parent = nullptr);
    ~ResultsView() override;

    // The pages, in pageNames() order: throughput (chart over table), fds (per point over by
    // type), latency, rate, process; and the comparison table.
    QList<QWidget *> chartPages() const;
    QTableWidget *comparePage() const { return m_compare; }
    // "throughput", "fds", "latency", "rate", "process".
    static QStringList pageNames();
    // The charts that export: the pages' and "fd-types" (the fds page's lower chart).
    static QStringList chartNames();
    // The page a chart is on.
    static QString pageOf(const QString &chart);

    // Each chart, brought up to date first.
    ThroughputChart *throughput() const;
    TimelineChart *timeline() const;
    FdTypesChart *fdTypes() const;
    LatencyChart *latency() const;
    RateChart *rate() const;
    ProcessChart *process() const;
    ResultsTableModel *model() const { return m_model; }
    const QList<lab::PointResult> &points() const { return m_points; }
    // An earlier run drawn beside the shown one, and the ratio at each size against it.
    struct Overlay
    {
        qint64 id = 0;
        QList<lab::PointResult> points; // as stored, targets not renamed
        lab::RunComparison comparison;
    };
    const QList<Overlay> &overlays() const { return m_overlays; }
    // Against the overlay `id` (0: the first); empty without one.
    const lab::RunComparison &comparison(qint64 id = 0) const;
    QList<qint64> overlayIds() const;

    // A run starts: nothing drawn, the size axis ready, no overlay, every view whole.
    void begin(const QList<quint64> &sizes);
    // A point of the run finished (kept slim, as every point here).
    void addPoint(const lab::PointResult &point);
    // The point being measured, from the live feed: its lines grow; returns the requests/s
    // of its latest interval, or -1 when the update brought nothing to draw.
    double applyLive(const lab::LiveFeed::Update &update);
    // A finished experiment, with the overlays (if any) beside it; every view whole again.
    void show(const QList<lab::PointResult> &points);
    // An earlier run drawn beside the shown one (throughput, fds per point, latency and
    // requests/s; the time charts with each run's first point at 0 s), with the ratio at each
    // size in the comparison. The same id again replaces it. Both draw at the next show().
    void addOverlay(const QList<lab::PointResult> &points, qint64 id);
    void clearOverlays();

    // A chart of chartNames() as PNG at `scale`, or SVG for a .svg path; a chart never shown
    // takes `fallback` as its size.
    bool exportChart(const QString &chart, const QString &path, QString *error, qreal scale,
                     QSize fallback, QSize size = {}) const;
    // The size a chart of chartNames() has on screen (small or empty when never shown).
    QSize shownSize(const QString &chart) const;
    // The numbers the chart draws, as CSV with units in the header.
    bool exportChartData(const QString &chart, const QString &path, QString *error) const;

    // What the window keeps of a point: everything but the latency histogram of each 100 ms
    // client sample (the point's own histogram stays; the database has the rest), so that a
    // 10-minute run is megabytes, not a hundred of them per copy.
    static lab::PointResult slim(lab::PointResult point);
    // The points of an experiment in a results database, kept slim; none with *error set.
    static QList<lab::PointResult> storedPoints(const QString &database, qint64 id, QString *error);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    enum Chart
    {
        Throughput,
        Timeline,
        FdTypes,
        Latency,
        Rate,
        Process,
        ChartCount
    };
    QWidget *widgetOf(Chart chart) const;
    // Draws a stale chart whole: the points (with overlays where it draws them) and the live
    // point's line.
    void refresh(Chart chart) const;
    // Whether a chart can take a change now (on screen and up to date); else marks it stale.
    bool drawsNow(Chart chart);
    QList<QPointF> liveRate() const;
    void fillComparison();
    // The shown points and every overlay's (renamed "target (#id)", moved to the shown run's
    // clock) for the charts that draw overlays.
    QList<lab::PointResult> withOverlays() const;
    void releaseViews();

    ThroughputChart *m_chart;
    ResultsTableModel *m_model;
    QTableView *m_table;
    TimelineChart *m_timeline;
    FdTypesChart *m_fdTypes;
    LatencyChart *m_latency;
    RateChart *m_rate;
    ProcessChart *m_process;
    QTableWidget *m_compare;
    QList<QWidget *> m_pages;

    QList<lab::PointResult> m_points;
    QList<quint64> m_sizes; // a run's planned sizes (the size axis), empty for a finished one
    QList<Overlay> m_overlays;

    // The live point: its serial in the feed, fd samples, and client requests per 100 ms slot.
    int m_liveSerial = 0;
    std::int64_t m_liveStart = 0;
    std::int64_t m_lastFinishedStart = -1;
    QString m_liveTarget;
    QList<QPointF> m_liveFds;
    mutable std::array<bool, ChartCount> m_stale{};
    struct Slot
    {
        quint64 requests = 0;
        quint64 bytes = 0;
        qint64 intervalMicros = 0;
    };
    QMap<qint64, Slot> m_liveSlots; // per 100 ms of the live point: the client threads summed
};

} // namespace servelab::ui
