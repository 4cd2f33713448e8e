// SPDX-License-Identifier: Apache-2.0
#include "processchart.h"

#include "chartframe.h"
#include "chartview.h"
#include "lab/results/resultexport.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace servelab::ui {

ProcessChart::ProcessChart(QWidget *parent)
    : RunChart(tr("The server (all its processes): threads, CPU, memory"), parent),
      m_time(new QValueAxis), m_left(new QValueAxis), m_right(new QValueAxis),
      m_threads(new QLineSeries), m_cpu(new QLineSeries), m_rss(new QLineSeries),
      m_processes(new QLineSeries)
{
    addAxis(chart(), m_time, tr("Seconds since the first sample"), 1, Qt::AlignBottom);
    addAxis(chart(), m_left, tr("Threads · CPU (% of a core)"), 0, Qt::AlignLeft);
    addAxis(chart(), m_right, tr("RSS (MiB)"), 0, Qt::AlignRight);
    m_threads->setName(tr("threads"));
    m_cpu->setName(tr("CPU %"));
    m_rss->setName(tr("RSS (MiB)"));
    m_processes->setName(tr("processes"));
    for (QLineSeries *s : {m_threads, m_cpu, m_rss, m_processes}) {
        chart()->addSeries(s);
        s->attachAxis(m_time);
        s->attachAxis(s == m_rss ? m_right : m_left);
    }
    m_processes->setVisible(false); // until a server of several processes is drawn
    chart()->legend()->markers(m_processes).value(0)->setVisible(false);
}

// The axes around the samples, unless the user holds the view (zoomed or panned).
void ProcessChart::fit()
{
    if (!ChartView::isHeld(chart())) {
        m_time->setRange(0, m_last);
        m_time->applyNiceNumbers();
        m_left->setRange(0, std::max(m_most, m_peakCpu) * 1.1);
        m_left->applyNiceNumbers();
        m_right->setRange(0, m_mostRss * 1.1);
        m_right->applyNiceNumbers();
    }
    m_tunes.draw(chart(), m_time, m_left, m_left->max());
}

void ProcessChart::setPoints(const QList<lab::PointResult> &points)
{
    std::vector<metrics::ProcessSample> samples;
    for (const auto &p : points)
        for (const auto &s : p.serverSamples)
            if (s.alive)
                samples.push_back(s);
    std::sort(samples.begin(), samples.end(),
              [](const auto &a, const auto &b) { return a.atMicros < b.atMicros; });
    QList<QPointF> threads;
    QList<QPointF> cpu;
    QList<QPointF> rss;
    QList<QPointF> processes;
    bool several = false;
    double most = 1;
    double mostRss = 1;
    double last = 1;
    m_peakCpu = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto &s = samples[i];
        const double t = double(s.atMicros - samples.front().atMicros) / 1e6;
        threads.append({t, double(s.threads)});
        rss.append({t, double(s.rssBytes) / (1024.0 * 1024.0)});
        processes.append({t, double(s.processes)});
        several = several || s.processes > 1;
        // CPU between this sample and the one before, when they are far enough apart to say.
        if (i > 0 && s.atMicros - samples[i - 1].atMicros >= 20'000) {
            const double used = (s.userSeconds + s.systemSeconds) -
                                (samples[i - 1].userSeconds + samples[i - 1].systemSeconds);
            const double percent =
                std::max(0.0, used * 100.0 * 1e6 / double(s.atMicros - samples[i - 1].atMicros));
            cpu.append({t, percent});
            m_peakCpu = std::max(m_peakCpu, percent);
        }
        most = std::max({most, double(s.threads), double(s.processes)});
        mostRss = std::max(mostRss, rss.last().y());
        last = std::max(last, t);
    }
    m_threads->replace(threads);
    m_cpu->replace(cpu);
    m_rss->replace(rss);
    m_processes->replace(several ? processes : QList<QPointF>());
    m_processes->setVisible(several);
    chart()->legend()->markers(m_processes).value(0)->setVisible(several);
    m_tunes.clear();
    for (const auto &p : points)
        for (const lab::TuneEvent &e : p.tuneEvents)
            if (!samples.empty())
                m_tunes.add(double(e.atMicros - samples.front().atMicros) / 1e6, e);
    m_last = last;
    m_most = most;
    m_mostRss = mostRss;
    fit();
}

bool ProcessChart::showsProcesses() const
{
    return m_processes->isVisible();
}

int ProcessChart::sampleCount() const
{
    return int(m_threads->count());
}

QString ProcessChart::dataCsv(const RunView &run) const
{
    return lab::formatTimelineCsv(run.points);
}

} // namespace servelab::ui
