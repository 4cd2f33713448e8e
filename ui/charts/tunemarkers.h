// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QPair>
#include <QString>

class QChart;
class QLineSeries;
class QValueAxis;

namespace servelab::lab {
struct TuneEvent;
}

namespace servelab::ui {

// The changes made to the server while a run went on (live tuning), drawn on a timeline as
// dashed vertical lines at the moments they took effect, with one legend entry naming them
// ("tuned: threads=8 at 1.0 s"); a change the server refused is not drawn (it changed nothing)
// but its point's table row says why.
class TuneMarkers
{
public:
    // The chart removed every series: forget these and the changes.
    void reset();
    // Forget the changes only (the next draw() hides the series).
    void clear() { m_changes.clear(); }
    void add(double seconds, const lab::TuneEvent &event);
    // Draws them, from 0 to `top` on the value axis; nothing (no legend entry) without any.
    void draw(QChart *chart, QValueAxis *time, QValueAxis *value, double top);
    int count() const { return int(m_changes.size()); }

private:
    QList<QPair<double, QString>> m_changes; // seconds on the chart's clock, what changed
    QList<QLineSeries *> m_lines;            // one per change; the first alone in the legend
};

} // namespace servelab::ui
