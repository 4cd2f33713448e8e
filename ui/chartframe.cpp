#include "chartframe.h"

#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QVBoxLayout>

namespace servelab::ui {

void frameChart(QChart *chart, const QString &title)
{
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
}

QChartView *fillWithView(QWidget *owner, QChart *chart)
{
    auto *view = new QChartView(chart, owner);
    view->setRenderHint(QPainter::Antialiasing);
    view->setRubberBand(QChartView::RectangleRubberBand);
    auto *layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    return view;
}

} // namespace servelab::ui
