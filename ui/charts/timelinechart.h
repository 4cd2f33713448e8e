// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointlineschart.h"

#include <QImage>

class QLineSeries;

namespace servelab::ui {

// The server's open descriptors over the run, one series per target, points one after the
// other on the run's clock (seconds since its first point), with the fd limit drawn when the
// samples know it: where the seeds' "Too many open files" shows as a line meeting the limit.
class TimelineChart : public PointLinesChart
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);

    void draw(const RunView &run) override;
    void drawLive(const LivePoint &live) override;
    QString dataCsv(const RunView &run) const override;

    int targetCount() const { return m_targets; } // legend entries
    QImage render() const;

protected:
    std::int64_t originOf(const lab::PointResult &point) const override;
    QList<QPointF> lineOf(const lab::PointResult &point) const override;
    void cleared() override;
    void appended(const lab::PointResult &point) override;

private:
    int m_targets = 0;
    QLineSeries *m_limitLine = nullptr;
    int m_limit = -1;
};

} // namespace servelab::ui
