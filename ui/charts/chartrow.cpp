// SPDX-License-Identifier: Apache-2.0
#include "chartrow.h"

#include "costchart.h"
#include "fdtypeschart.h"
#include "latencychart.h"
#include "loadlatencychart.h"
#include "processchart.h"
#include "protocolratiochart.h"
#include "ratechart.h"
#include "throughputchart.h"
#include "timelinechart.h"

#include <QCoreApplication>

#include <array>

namespace servelab::ui {

namespace {

template<class Chart>
RunChart *make()
{
    return new Chart;
}

constexpr std::array rows{
    ChartRow{"throughput", "throughput", QT_TRANSLATE_NOOP("ChartRow", "Throughput"),
             QT_TRANSLATE_NOOP("ChartRow", "Throughput"), true, make<ThroughputChart>},
    ChartRow{"fds", "fds", QT_TRANSLATE_NOOP("ChartRow", "File descriptors"),
             QT_TRANSLATE_NOOP("ChartRow", "Fds"), false, make<TimelineChart>},
    ChartRow{"fd-types", "fds", QT_TRANSLATE_NOOP("ChartRow", "File descriptors"),
             QT_TRANSLATE_NOOP("ChartRow", "Fds"), false, make<FdTypesChart>},
    ChartRow{"latency", "latency", QT_TRANSLATE_NOOP("ChartRow", "Latency"),
             QT_TRANSLATE_NOOP("ChartRow", "Latency"), false, make<LatencyChart>},
    ChartRow{"rate", "rate", QT_TRANSLATE_NOOP("ChartRow", "Rate"),
             QT_TRANSLATE_NOOP("ChartRow", "Rate"), false, make<RateChart>},
    ChartRow{"latency-load", "latency-load", QT_TRANSLATE_NOOP("ChartRow", "Latency vs load"),
             QT_TRANSLATE_NOOP("ChartRow", "Load"), false, make<LoadLatencyChart>},
    ChartRow{"process", "process", QT_TRANSLATE_NOOP("ChartRow", "Process"),
             QT_TRANSLATE_NOOP("ChartRow", "Process"), false, make<ProcessChart>},
    ChartRow{"cost", "cost", QT_TRANSLATE_NOOP("ChartRow", "Cost per request"),
             QT_TRANSLATE_NOOP("ChartRow", "Cost"), false, make<CostChart>},
    ChartRow{"h2-tax", "h2-tax", QT_TRANSLATE_NOOP("ChartRow", "HTTP/2 ÷ HTTP/1.1"),
             QT_TRANSLATE_NOOP("ChartRow", "h2 tax"), false, make<ProtocolRatioChart>},
};

} // namespace

std::span<const ChartRow> chartRows()
{
    return rows;
}

int chartIndex(const QString &name)
{
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (name == QLatin1StringView(rows[i].name))
            return int(i);
    return -1;
}

QStringList chartNames()
{
    QStringList names;
    for (const ChartRow &row : rows)
        names << QLatin1StringView(row.name);
    return names;
}

QStringList chartPages()
{
    QStringList pages;
    for (const ChartRow &row : rows)
        if (!pages.contains(QString::fromLatin1(row.page)))
            pages << QLatin1StringView(row.page);
    return pages;
}

QString chartPage(const QString &name)
{
    const int i = chartIndex(name);
    return i < 0 ? QString() : QString(QLatin1StringView(rows[std::size_t(i)].page));
}

QString chartPageTitle(const QString &page)
{
    for (const ChartRow &row : rows)
        if (page == QLatin1StringView(row.page))
            return QCoreApplication::translate("ChartRow", row.pageTitle);
    return {};
}

QString chartPageShortTitle(const QString &page)
{
    for (const ChartRow &row : rows)
        if (page == QLatin1StringView(row.page))
            return QCoreApplication::translate("ChartRow", row.pageShortTitle);
    return {};
}

} // namespace servelab::ui
