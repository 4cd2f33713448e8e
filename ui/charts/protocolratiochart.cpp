// SPDX-License-Identifier: Apache-2.0
#include "protocolratiochart.h"

#include "chartview.h"
#include "lab/results/protocolratio.h"
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
#include <QValueAxis>

#include <cmath>

namespace servelab::ui {

namespace {

double valueOf(const lab::ProtocolRatio &r, int figure)
{
    return figure == ProtocolRatioChart::ServerCpu ? r.serverCpu : r.throughput;
}

} // namespace

ProtocolRatioChart::ProtocolRatioChart(QWidget *parent)
    : RunChart(tr("HTTP/2 over HTTP/1.1 by file size"), parent), m_sizeAxis(new QCategoryAxis),
      m_valueAxis(new QValueAxis), m_choice(new QComboBox), m_level(new QLineSeries)
{
    m_choice->addItem(tr("throughput, h2 ÷ h1"));
    m_choice->addItem(tr("server CPU µs/req, h2 ÷ h1"));
    m_choice->setObjectName(QStringLiteral("protocolFigure"));
    m_choice->setToolTip(tr("Below 1: HTTP/2 serves less; above 1: it costs the server more per "
                            "request"));
    controlRow()->addWidget(new QLabel(tr("Show:")));
    controlRow()->addWidget(m_choice);
    controlRow()->addStretch();
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int index) {
        setFigure(index);
        Q_EMIT drawAgain();
    });
    m_sizeAxis->setTitleText(tr("File size (log₂)"));
    m_sizeAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    chart()->addAxis(m_sizeAxis, Qt::AlignBottom);
    chart()->addAxis(m_valueAxis, Qt::AlignLeft);
    m_level->setName(tr("level (1)"));
    m_level->setPen(QPen(QColor(128, 128, 128), 1.5, Qt::DashLine));
    chart()->addSeries(m_level);
    m_level->attachAxis(m_sizeAxis);
    m_level->attachAxis(m_valueAxis);
    setFigure(Throughput);
}

void ProtocolRatioChart::setFigure(int figure)
{
    m_figure = std::clamp(figure, int(Throughput), int(ServerCpu));
    m_choice->setCurrentIndex(m_figure);
    m_valueAxis->setTitleText(m_choice->currentText());
}

void ProtocolRatioChart::draw(const RunView &run)
{
    removeLines(chart(), &m_lines);
    m_pens = targetPens(chart(), run.points);
    setSizeCategories(m_sizeAxis, run.sizes);
    QMap<QString, QList<QPointF>> lines;
    m_max = 0;
    m_drawn = 0;
    for (const lab::ProtocolRatio &r : lab::protocolRatios(run.points)) {
        const double value = valueOf(r, m_figure);
        if (value < 0)
            continue;
        lines[r.label].append({log2Of(r.sizeBytes), value});
        m_max = std::max(m_max, value);
        ++m_drawn;
    }
    for (auto it = lines.begin(); it != lines.end(); ++it) {
        QLineSeries *line =
            addPointSeries(chart(), m_sizeAxis, m_valueAxis, it.key(), it.value(), m_pens);
        line->setPointsVisible(true);
        m_lines.append(line);
    }
    m_level->clear();
    m_level->append(m_sizeAxis->min(), 1);
    m_level->append(m_sizeAxis->max(), 1);
    for (auto *marker : chart()->legend()->markers(m_level))
        marker->setVisible(m_drawn > 0);
    fit();
    fitLegend();
}

void ProtocolRatioChart::fit()
{
    if (ChartView::isHeld(chart()))
        return;
    m_valueAxis->setRange(0, std::max(1.2, m_max * 1.1)); // the level line always in view
    m_valueAxis->applyNiceNumbers();
}

QString ProtocolRatioChart::dataCsv(const RunView &run) const
{
    QString out = QStringLiteral("target,pair,size_bytes,throughput_ratio,server_cpu_ratio\n");
    const auto number = [](double v) { return v < 0 ? QString() : QString::number(v, 'f', 3); };
    for (const lab::ProtocolRatio &r : lab::protocolRatios(run.points))
        out += QStringLiteral("\"%1\",%2,%3,%4,%5\n")
                   .arg(QString(r.target).replace(u'"', QStringLiteral("\"\"")), r.pair)
                   .arg(r.sizeBytes)
                   .arg(number(r.throughput), number(r.serverCpu));
    return out;
}

} // namespace servelab::ui
