// SPDX-License-Identifier: Apache-2.0
#include "chartframe.h"

#include "chartview.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QPalette>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

#include <array>

namespace servelab::ui {

void addAxis(QChart *chart, QValueAxis *axis, const QString &title, int decimals,
             Qt::Alignment side)
{
    axis->setTitleText(title);
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + u'f');
    chart->addAxis(axis, side);
}

void frameChart(QChart *chart, const QString &title)
{
    chart->setTheme(darkPalette() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setShowToolTips(true); // a name the legend has to shorten, whole on hover
    // The plot takes the room: thin margins around it, none around the chart.
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
}

QChartView *fillWithView(QWidget *owner, QChart *chart)
{
    auto *view = new ChartView(chart, owner);
    auto *layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    return view;
}

bool darkPalette()
{
    const QPalette palette = QApplication::palette();
    return palette.color(QPalette::Window).lightness() <
           palette.color(QPalette::WindowText).lightness();
}

QPen targetPen(int index, bool dark)
{
    // Chosen here for this lab: apart in hue and lightness, none of them the red of the DNF,
    // EMFILE and fd-limit marks.
    static constexpr std::array<QRgb, 12> hues{
        0x2166ac, // blue
        0xe08214, // orange
        0x1b9e77, // teal
        0x7570b3, // violet
        0xc51b7d, // magenta
        0x66a61e, // green
        0x8c510a, // brown
        0x00a0c8, // cyan
        0xb8a200, // olive yellow
        0x5e3c99, // indigo
        0x35978f, // sea green
        0x878787, // grey
    };
    static constexpr std::array<Qt::PenStyle, 3> styles{Qt::SolidLine, Qt::DashDotLine,
                                                        Qt::DotLine};
    const auto i = std::size_t(std::max(0, index));
    QColor colour = QColor::fromRgb(hues[i % hues.size()]);
    if (dark)
        colour = colour.lighter(135);
    QPen pen(colour);
    pen.setWidthF(2);
    pen.setStyle(styles[(i / hues.size()) % styles.size()]);
    return pen;
}

QColor neutralColour(bool dark)
{
    return dark ? QColor(170, 170, 170) : QColor(100, 100, 100);
}

void setRoundRange(QValueAxis *axis, double max)
{
    // Each multiple of a power of ten, and the ticks (intervals + 1) that give round steps.
    static constexpr std::array<std::pair<double, int>, 9> rounds{
        {{1, 6}, {2, 5}, {2.5, 6}, {3, 4}, {4, 5}, {5, 6}, {6, 4}, {8, 5}, {10, 6}}};
    const double step = std::pow(10.0, std::floor(std::log10(std::max(max, 1e-9))));
    for (const auto &[times, ticks] : rounds)
        if (times * step >= max * (1 - 1e-9)) {
            axis->setRange(0, times * step);
            axis->setTickCount(ticks);
            return;
        }
}

} // namespace servelab::ui
