// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QList>
#include <QMap>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QChart;
class QChartView;
class QHBoxLayout;

namespace servelab::ui {

// The point being measured, as the live feed has brought it so far: the server's open fds per
// sample, and the client's requests and bytes per 100 ms slot (its threads summed).
struct LivePoint
{
    struct Slot
    {
        quint64 requests = 0;
        quint64 bytes = 0;
        qint64 intervalMicros = 0;
    };
    static constexpr qint64 slotMicros = 100'000;

    QString target; // empty: no point is being measured
    std::int64_t startedAtMicros = 0;
    QList<QPointF> fds;                // (monotonic µs, open fds)
    QMap<qint64, Slot> bySlot;         // by slot number: (end µs + half a slot) / slotMicros
    std::vector<lab::TuneEvent> tunes; // the changes made to the server meanwhile
};

// What a chart draws of the experiment shown.
struct RunView
{
    QList<lab::PointResult> points;   // the shown run's
    QList<lab::PointResult> overlaid; // its points and every overlay's, on the shown run's clock
    QList<quint64> sizes;             // the size axis: the planned sizes, or those measured
    LivePoint live;
};

// One chart of the results: the interface ResultsView, the exports and `servelab-cli run --out`
// know, with a row per chart in chartcatalog.cpp. The base owns the QChart (titled and themed,
// frameChart) and its view filling the widget; going back from a zoom calls fit().
class RunChart : public QWidget
{
    Q_OBJECT
public:
    explicit RunChart(const QString &title, QWidget *parent = nullptr);

    QChartView *view() const { return m_view; }
    // Everything drawn again from `run`.
    virtual void draw(const RunView &run) = 0;
    // A point of the run finished (the last of run.points): by default drawn whole again; a
    // chart that draws a series per point adds one.
    virtual void addPoint(const lab::PointResult &point, const RunView &run);
    // The live point grew (charts over the run's time draw it; the others ignore it).
    virtual void drawLive(const LivePoint &live);
    // The numbers the chart draws, as CSV with units in the header.
    virtual QString dataCsv(const RunView &run) const = 0;
    // Whether what was drawn holds nothing of the run (a chart of rate points for a run with
    // none): `run --out` leaves such a chart out; the window's tab says what would fill it.
    virtual bool isEmpty() const { return false; }

    // The legend under the plot while every name fits on one row, else beside it, a name a
    // line: never cut short. Call after drawing; a resize calls it too.
    void fitLegend() const;

Q_SIGNALS:
    // The user changed what the chart shows: the owner calls draw() again.
    void drawAgain();

protected:
    QChart *chart() const { return m_chart; }
    void resizeEvent(QResizeEvent *event) override;
    // A row above the chart for its own controls (a scale, what is shown), made on first use.
    QHBoxLayout *controlRow();
    // The axes around everything drawn, unless the user holds the view (zoomed or panned).
    virtual void fit() = 0;

private:
    QChart *m_chart;
    QChartView *m_view;
    QHBoxLayout *m_controls = nullptr;
};

} // namespace servelab::ui
