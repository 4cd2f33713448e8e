// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointseries.h"
#include "runchart.h"

class QAbstractSeries;
class QCategoryAxis;
class QComboBox;
class QLineSeries;
class QValueAxis;

namespace servelab::ui {

// The h2 tax by file size (lab::protocolRatios): for each target measured over HTTP/1.1 and
// HTTP/2, the HTTP/2 figure over the HTTP/1.1 one at each size — throughput, or server CPU per
// request, chosen above the chart — one line per target in its h2 series' colour, and a dashed
// line at 1 where the protocols are level. Empty for a run without such pairs.
class ProtocolRatioChart : public RunChart
{
    Q_OBJECT
public:
    explicit ProtocolRatioChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override;
    QString dataCsv(const RunView &run) const override;
    bool isEmpty() const override { return m_drawn == 0; }

    enum Figure
    {
        Throughput,
        ServerCpu
    };
    void setFigure(int figure); // draws nothing by itself
    int figure() const { return m_figure; }
    int drawnCount() const { return m_drawn; } // ratios drawn, over every line

protected:
    void fit() override;

private:
    QCategoryAxis *m_sizeAxis;
    QValueAxis *m_valueAxis;
    QComboBox *m_choice;
    QLineSeries *m_level;
    QList<QAbstractSeries *> m_lines;
    TargetPens m_pens;
    int m_figure = Throughput;
    int m_drawn = 0;
    double m_max = 0;
};

} // namespace servelab::ui
