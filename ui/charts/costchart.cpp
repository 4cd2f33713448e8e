// SPDX-License-Identifier: Apache-2.0
#include "costchart.h"

#include "chartview.h"
#include "lab/results/bottleneck.h"
#include "lab/results/pointcost.h"
#include "lab/spec/sizelist.h"

#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMap>
#include <QScatterSeries>
#include <QValueAxis>

#include <cmath>

namespace servelab::ui {

namespace {

struct Mean
{
    double sum = 0;
    int count = 0;
    bool clientBound = false;
};

// The figure's mean per (target, size), over the repetitions that have it.
QMap<QPair<QString, quint64>, Mean> means(const QList<lab::PointResult> &points,
                                          const lab::PointCost &cost)
{
    QMap<QPair<QString, quint64>, Mean> out;
    for (const auto &p : points) {
        const double value = cost.of(p);
        if (value < 0)
            continue;
        Mean &m = out[{p.target, p.sizeBytes}];
        m.sum += value;
        ++m.count;
        m.clientBound |=
            p.verdict ==
            QLatin1StringView(lab::Bottleneck::row(lab::Bottleneck::Kind::ClientBound).name);
    }
    return out;
}

} // namespace

CostChart::CostChart(QWidget *parent)
    : RunChart(tr("Cost per request by file size"), parent), m_sizeAxis(new QCategoryAxis),
      m_valueAxis(new QValueAxis), m_choice(new QComboBox), m_clientBound(new QScatterSeries)
{
    for (const lab::PointCost &cost : lab::PointCost::rows())
        m_choice->addItem(QString::fromUtf8(cost.label));
    m_choice->setObjectName(QStringLiteral("costFigure"));
    m_choice->setToolTip(tr("What one request cost the server or the client"));
    controlRow()->addWidget(new QLabel(tr("Show:")));
    controlRow()->addWidget(m_choice);
    controlRow()->addStretch();
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setFigure(index);
        Q_EMIT drawAgain();
    });
    m_sizeAxis->setTitleText(tr("File size (log₂)"));
    m_sizeAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_valueAxis->setMin(0);
    chart()->addAxis(m_sizeAxis, Qt::AlignBottom);
    chart()->addAxis(m_valueAxis, Qt::AlignLeft);
    m_clientBound->setName(tr("client-bound: the client's numbers"));
    m_clientBound->setMarkerSize(18);
    m_clientBound->setColor(Qt::transparent);
    m_clientBound->setPen(QPen(QColor(128, 128, 128), 2, Qt::DotLine));
    chart()->addSeries(m_clientBound);
    m_clientBound->attachAxis(m_sizeAxis);
    m_clientBound->attachAxis(m_valueAxis);
    setFigure(0);
}

void CostChart::setFigure(int row)
{
    m_figure = std::clamp(row, 0, int(lab::PointCost::rows().size()) - 1);
    m_choice->setCurrentIndex(m_figure);
    m_valueAxis->setTitleText(
        QString::fromUtf8(lab::PointCost::rows()[std::size_t(m_figure)].label));
}

void CostChart::draw(const RunView &run)
{
    removeLines(chart(), &m_lines);
    m_pens = targetPens(chart(), run.overlaid);
    setSizeCategories(m_sizeAxis, run.sizes);

    const auto byPoint = means(run.overlaid, lab::PointCost::rows()[std::size_t(m_figure)]);
    QMap<QString, QList<QPointF>> lines;
    QList<QPointF> ringed;
    m_max = 0;
    for (auto it = byPoint.begin(); it != byPoint.end(); ++it) { // by target, then size
        const QPointF at(log2Of(it.key().second), it->sum / it->count);
        lines[it.key().first].append(at);
        if (it->clientBound)
            ringed.append(at);
        m_max = std::max(m_max, at.y());
    }
    m_drawn = int(byPoint.size());
    for (auto it = lines.begin(); it != lines.end(); ++it) { // by name; colours by targetOrder
        QLineSeries *line =
            addPointSeries(chart(), m_sizeAxis, m_valueAxis, it.key(), it.value(), m_pens);
        line->setPointsVisible(true);
        m_lines.append(line);
    }
    m_clientBound->replace(ringed);
    for (auto *marker : chart()->legend()->markers(m_clientBound))
        marker->setVisible(!ringed.isEmpty());
    fit();
    fitLegend();
}

void CostChart::fit()
{
    if (ChartView::isHeld(chart()))
        return;
    m_valueAxis->setRange(0, m_max > 0 ? m_max * 1.1 : 1.0);
    m_valueAxis->applyNiceNumbers();
}

int CostChart::clientBoundCount() const
{
    return int(m_clientBound->count());
}

QString CostChart::dataCsv(const RunView &run) const
{
    const lab::PointCost &cost = lab::PointCost::rows()[std::size_t(m_figure)];
    QString out = QStringLiteral("target,size_bytes,%1,repetitions,client_bound\n")
                      .arg(QLatin1StringView(cost.key));
    const auto byPoint = means(run.overlaid, cost);
    for (auto it = byPoint.begin(); it != byPoint.end(); ++it)
        out += QStringLiteral("\"%1\",%2,%3,%4,%5\n")
                   .arg(QString(it.key().first).replace(u'"', QStringLiteral("\"\"")))
                   .arg(it.key().second)
                   .arg(it->sum / it->count, 0, 'f', cost.decimals)
                   .arg(it->count)
                   .arg(int(it->clientBound));
    return out;
}

} // namespace servelab::ui
