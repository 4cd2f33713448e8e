// SPDX-License-Identifier: Apache-2.0
#include "ratechart.h"

#include "lab/results/resultexport.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

RateChart::RateChart(QWidget *parent)
    : PointLinesChart(tr("Rate over the run"), tr("Requests/s (100 ms intervals)"), parent),
      m_choice(new QComboBox), m_agents(new QComboBox)
{
    m_choice->addItem(tr("Requests/s"));
    m_choice->addItem(tr("KiB/s"));
    m_choice->setToolTip(tr("What the lines show, per 100 ms interval of the client"));
    m_agents->setObjectName(QStringLiteral("rateAgents"));
    m_agents->addItem(tr("Load hosts merged"));
    m_agents->addItem(tr("Each load agent"));
    m_agents->setToolTip(tr("A run across machines: the load as one line, or a line per load "
                            "agent from its own samples"));
    m_agents->setVisible(false);
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:")));
    bar->addWidget(m_choice);
    bar->addWidget(m_agents);
    bar->addStretch();
    static_cast<QVBoxLayout *>(layout())->insertLayout(0, bar);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMeasure(index == 1 ? Measure::Kib : Measure::Requests);
        Q_EMIT drawAgain();
    });
    connect(m_agents, &QComboBox::currentIndexChanged, this, [this](int index) {
        setEachAgent(index == 1);
        Q_EMIT drawAgain();
    });
}

void RateChart::draw(const RunView &run)
{
    const bool distributed = std::any_of(run.overlaid.cbegin(), run.overlaid.cend(),
                                         [](const auto &p) { return !p.agents.empty(); });
    m_agents->setVisible(distributed);
    setPoints(distributed && m_eachAgent ? agentLanes(run.overlaid) : run.overlaid);
    drawLive(run.live);
}

// A point of a run across machines shows the choice; with each agent chosen, its lanes are
// the lines it adds.
void RateChart::addPoint(const lab::PointResult &point, const RunView &run)
{
    if (point.agents.empty())
        return PointLinesChart::addPoint(point, run);
    m_agents->setVisible(true);
    if (!m_eachAgent)
        return PointLinesChart::addPoint(point, run);
    for (const lab::PointResult &lane : agentLanes({point}))
        PointLinesChart::addPoint(lane, run);
}

void RateChart::setEachAgent(bool each)
{
    m_eachAgent = each;
    m_agents->setCurrentIndex(each ? 1 : 0);
}

QList<lab::PointResult> RateChart::agentLanes(const QList<lab::PointResult> &points)
{
    QList<lab::PointResult> out;
    for (const lab::PointResult &p : points) {
        if (p.agents.empty()) {
            out << p;
            continue;
        }
        for (const lab::AgentLane &lane : p.agents) {
            lab::PointResult part;
            part.index = p.index;
            part.repetition = p.repetition;
            part.sizeBytes = p.sizeBytes;
            part.target = p.target + QStringLiteral(" · ") + lane.agent;
            part.startedAtMicros = p.startedAtMicros; // lanes' samples are from T0 too
            part.clientSamples = lane.samples;
            out << part;
        }
    }
    return out;
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
    setLive(live.target, rate, live.tunes);
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
