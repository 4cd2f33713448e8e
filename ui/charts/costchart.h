// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointseries.h"
#include "runchart.h"

class QAbstractSeries;
class QCategoryAxis;
class QComboBox;
class QScatterSeries;
class QValueAxis;

namespace servelab::ui {

// What one request cost, by file size: one line per target (the mean of its repetitions), the
// figure chosen above the chart from PointCost's rows (server CPU µs per request first; the
// client's, context switches, faults, syscalls per request or per MiB). Client-bound points
// are ringed in grey, as on the throughput chart. DNF points and figures not read are left out.
class CostChart : public RunChart
{
    Q_OBJECT
public:
    explicit CostChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override;
    QString dataCsv(const RunView &run) const override;
    bool isEmpty() const override { return m_drawn == 0; }

    // The PointCost row shown (an index in PointCost::rows()); draws nothing by itself.
    void setFigure(int row);
    int figure() const { return m_figure; }
    int drawnCount() const { return m_drawn; } // points drawn, over every line
    int clientBoundCount() const;

protected:
    void fit() override;

private:
    QCategoryAxis *m_sizeAxis;
    QValueAxis *m_valueAxis;
    QComboBox *m_choice;
    QScatterSeries *m_clientBound;
    QList<QAbstractSeries *> m_lines;
    TargetPens m_pens;
    int m_figure = 0;
    int m_drawn = 0;
    double m_max = 0;
};

} // namespace servelab::ui
