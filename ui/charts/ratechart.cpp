// SPDX-License-Identifier: Apache-2.0
#include "ratechart.h"

#include "lab/results/resultexport.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

namespace servelab::ui {

RateChart::RateChart(QWidget *parent)
    : PointLinesChart(tr("Rate over the run"), tr("Requests/s (100 ms intervals)"), parent),
      m_choice(new QComboBox)
{
    m_choice->addItem(tr("Requests/s"));
    m_choice->addItem(tr("KiB/s"));
    m_choice->setToolTip(tr("What the lines show, per 100 ms interval of the client"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_choice);
    bar->addStretch();
    static_cast<QVBoxLayout *>(layout())->insertLayout(0, bar);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMeasure(index == 1 ? Measure::Kib : Measure::Requests);
        Q_EMIT drawAgain();
    });
}

void RateChart::draw(const RunView &run)
{
    setPoints(run.overlaid);
    drawLive(run.live);
}

// The live point's slots in the measure shown, at the end of each slot.
void RateChart::drawLive(const LivePoint &live)
{
    if (live.target.isEmpty())
        return;
    QList<QPointF> rate;
    rate.reserve(live.bySlot.size());
    for (auto it = live.bySlot.cbegin(); it != live.bySlot.cend(); ++it)
        if (it->intervalMicros > 0)
            rate.append({double(live.startedAtMicros + it.key() * LivePoint::slotMicros),
                         valueOf(it->requests, it->bytes, it->intervalMicros)});
    setLive(live.target, rate);
}

QString RateChart::dataCsv(const RunView &run) const
{
    return lab::formatTimelineCsv(run.overlaid); // what it draws: overlays too
}

std::int64_t RateChart::originOf(const lab::PointResult &point) const
{
    return point.clientSamples.empty() ? -1 : point.startedAtMicros;
}

QList<QPointF> RateChart::lineOf(const lab::PointResult &point) const
{
    QList<QPointF> line;
    for (const auto &s : point.clientSamples)
        if (s.intervalMicros > 0)
            line.append({double(point.startedAtMicros + s.endMicros),
                         valueOf(s.completed, s.bytesRead, s.intervalMicros)});
    return line;
}

void RateChart::setMeasure(Measure measure)
{
    m_measure = measure;
    m_choice->setCurrentIndex(measure == Measure::Kib ? 1 : 0);
    valueAxis()->setTitleText(valueTitle());
}

QString RateChart::valueTitle() const
{
    return m_measure == Measure::Kib ? tr("KiB/s (100 ms intervals)")
                                     : tr("Requests/s (100 ms intervals)");
}

double RateChart::valueOf(std::uint64_t completed, std::uint64_t bytes,
                          std::int64_t intervalMicros) const
{
    if (intervalMicros <= 0)
        return 0;
    const double perSecond = 1e6 / double(intervalMicros);
    return m_measure == Measure::Kib ? double(bytes) / 1024.0 * perSecond
                                     : double(completed) * perSecond;
}

} // namespace servelab::ui
