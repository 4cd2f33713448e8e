// SPDX-License-Identifier: Apache-2.0
#include "tunemarkers.h"

#include "lab/results/tuneevent.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace servelab::ui {

namespace {
constexpr int legendChanges = 2; // named in the legend; the rest counted
} // namespace

void TuneMarkers::reset()
{
    m_changes.clear();
    m_lines.clear();
}

void TuneMarkers::add(double seconds, const lab::TuneEvent &event)
{
    // Once: a change marked live comes again with its point's result.
    if (event.made() && !m_changes.contains(QPair<double, QString>{seconds, event.change}))
        m_changes.append({seconds, event.change});
}

void TuneMarkers::draw(QChart *chart, QValueAxis *time, QValueAxis *value, double top)
{
    QPen pen(QColor(0x8e, 0x44, 0xad)); // violet: no target's colour
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    while (m_lines.size() < m_changes.size()) {
        auto *line = new QLineSeries;
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(time);
        line->attachAxis(value);
        if (!m_lines.isEmpty()) // one legend entry names them all
            chart->legend()->markers(line).value(0)->setVisible(false);
        m_lines << line;
    }
    QStringList named;
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        const bool shown = i < m_changes.size();
        m_lines[i]->setVisible(shown);
        if (i == 0)
            chart->legend()->markers(m_lines[i]).value(0)->setVisible(shown);
        if (!shown)
            continue;
        const auto &[seconds, change] = m_changes[i];
        m_lines[i]->replace({QPointF(seconds, 0), QPointF(seconds, top)});
        if (named.size() < legendChanges)
            named << QObject::tr("%1 at %2 s").arg(change).arg(seconds, 0, 'f', 1);
    }
    if (m_changes.isEmpty())
        return;
    if (m_changes.size() > legendChanges)
        named << QObject::tr("%n more", nullptr, int(m_changes.size()) - legendChanges);
    m_lines.first()->setName(QObject::tr("tuned: %1").arg(named.join(QStringLiteral("; "))));
}

} // namespace servelab::ui
