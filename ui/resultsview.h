// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/run/livefeed.h"
#include "lab/results/pointresult.h"
#include "lab/results/runcomparison.h"
#include "runchart.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QPointF>
#include <QSize>

#include <vector>

class QTableView;
class QLabel;
class QTableWidget;
class QWidget;

namespace servelab::ui {

class ResultsTableModel;
class RunChart;
class Session;

// What the window shows of the session's experiment: the charts, the seed's table and the
// comparison with the overlaid runs, drawn point by point during a run (and live within the
// point, from the feed) or all at once for a finished one; and their exports. The window puts
// its pages in tabs.
// Only the charts on screen are drawn as points and live samples arrive: one that is not (a
// tab not shown) is marked stale and drawn whole when it is shown, or when asked for (the
// getters below, exports), so that a run costs the GUI thread what the user looks at.
class ResultsView : public QObject
{
    Q_OBJECT
public:
    // Draws what `session` shows, following its signals.
    explicit ResultsView(const Session *session, QObject *parent = nullptr);
    ~ResultsView() override;

    // The pages, in chartPages() order (chartrow.h), the charts of a page stacked, the seed's
    // table under the chart whose row says so; and the comparison table.
    QList<QWidget *> chartPages() const { return m_pages; }
    QWidget *comparePage() const { return m_comparePage; }
    QTableWidget *compareTable() const { return m_compare; }
    // What the Compare page says above its table: what to do when there is nothing to compare.
    QString compareHint() const;

    // A chart of chartNames(), brought up to date first; nullptr for no chart of that name.
    RunChart *chart(const QString &name) const;
    template <class Chart>
    Chart *chart(const QString &name) const
    {
        return qobject_cast<Chart *>(chart(name));
    }
    ResultsTableModel *model() const { return m_model; }

    // The point being measured, from the live feed: its lines grow; returns the requests/s
    // of its latest interval, or -1 when the update brought nothing to draw.
    double applyLive(const lab::LiveFeed::Update &update);

    // A chart of chartNames() as PNG at `scale`, or SVG for a .svg path; a chart never shown
    // takes `fallback` as its size.
    bool exportChart(const QString &chart, const QString &path, QString *error, qreal scale,
                     QSize fallback, QSize size = {}) const;
    // The size a chart of chartNames() has on screen (small or empty when never shown).
    QSize shownSize(const QString &chart) const;
    // The numbers the chart draws, as CSV with units in the header.
    bool exportChartData(const QString &chart, const QString &path, QString *error) const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // A run starts: nothing drawn, the size axis ready, every view whole.
    void begin(const QList<quint64> &sizes);
    // A point of the run finished.
    void addPoint(const lab::PointResult &point);
    // A finished experiment, with the overlays (if any) beside it; every view whole again.
    void show();
    // Draws a stale chart (by its row) whole: the points, overlays and the live point's line.
    void refresh(int chart) const;
    // Whether a chart can take a change now (on screen and up to date); else marks it stale.
    bool drawsNow(int chart);
    RunView runView() const;
    void fillComparison();
    // The shown points and every overlay's (renamed "target (#id)", moved to the shown run's
    // clock) for the charts that draw overlays.
    QList<lab::PointResult> withOverlays() const;
    void releaseViews();

    const Session *m_session;
    std::vector<RunChart *> m_charts; // by chartRows() index
    ResultsTableModel *m_model;
    QTableView *m_table;
    QTableWidget *m_compare;
    QWidget *m_comparePage;
    QLabel *m_compareHint;
    QList<QWidget *> m_pages;

    QList<quint64> m_sizes; // a run's planned sizes (the size axis), empty for a finished one

    // The live point: its serial in the feed and what it has brought (LivePoint::target empty
    // while no point is measured); the start of the last point finished.
    int m_liveSerial = 0;
    LivePoint m_live;
    std::int64_t m_lastFinishedStart = -1;
    mutable std::vector<char> m_stale; // by chartRows() index
};

} // namespace servelab::ui
