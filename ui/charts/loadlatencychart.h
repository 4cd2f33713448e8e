// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runchart.h"

#include "lab/results/loadlatency.h"

class QLogValueAxis;
class QValueAxis;

namespace servelab::ui {

// Latency against offered load, from the rate points of a run (lab::loadLatencyCurves): the
// offered rate across, the corrected p50, p90, p99 and p99.9 latency up the left (log scale)
// and the achieved rate up the right, a target's lines in its colour; a triangle marks where
// each target saturated, the legend states the rule. Empty, it says which runs fill it.
class LoadLatencyChart : public RunChart
{
    Q_OBJECT
public:
    explicit LoadLatencyChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override;
    // One row per target, size and offered rate: what the chart draws.
    QString dataCsv(const RunView &run) const override;

    bool isEmpty() const override { return m_curves.isEmpty(); }
    const QList<lab::LoadLatencyCurve> &curves() const { return m_curves; }

private:
    void fit() override;

    QList<lab::LoadLatencyCurve> m_curves;
    QValueAxis *m_offered;
    QLogValueAxis *m_latency;
    QValueAxis *m_achieved;
};

} // namespace servelab::ui
