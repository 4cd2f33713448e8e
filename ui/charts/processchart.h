// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runchart.h"
#include "tunemarkers.h"

#include <QList>
#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace servelab::ui {

// The server process over the run, from its 100 ms samples: threads and CPU (user + system, in
// % of one core) on the left axis, resident memory in MiB on the right; seconds since the first
// sample, as in the fd timeline. Where a thread-per-connection server grows, or a server burns
// CPU refusing connections. A server of several processes is summed over them, and its number
// of processes is a series of its own (shown only then: Apache's prefork children coming).
class ProcessChart : public RunChart
{
    Q_OBJECT
public:
    explicit ProcessChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override { setPoints(run.points); }
    QString dataCsv(const RunView &run) const override;

    void setPoints(const QList<lab::PointResult> &points);
    int sampleCount() const;                          // samples drawn, per series
    int tuneCount() const { return m_tunes.count(); } // changes marked
    bool showsProcesses() const; // the processes series is shown (a multi-process server)
    double peakCpuPercent() const { return m_peakCpu; }

protected:
    void fit() override;

private:
    QValueAxis *m_time;
    QValueAxis *m_left;
    QValueAxis *m_right;
    QLineSeries *m_threads;
    QLineSeries *m_cpu;
    QLineSeries *m_rss;
    QLineSeries *m_processes;
    TuneMarkers m_tunes;
    double m_peakCpu = 0;
    double m_last = 1; // the axes' extents: seconds, threads, MiB
    double m_most = 1;
    double m_mostRss = 1;
};

} // namespace servelab::ui
