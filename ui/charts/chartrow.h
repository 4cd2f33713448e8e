// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

#include <span>

namespace servelab::ui {

class RunChart;

// A chart of the results, declared once: its name (as --chart, the export menu, the data
// export and `servelab-cli run --out` name it), the tab it is on and the tab's title (charts
// sharing a tab stack top to bottom, in the rows' order), whether the seed's table of points goes
// under it, and how to make it. ResultsView, the exports and writeRunCharts() read these rows, so a
// new chart is its RunChart subclass and a row (chartrow.cpp).
struct ChartRow
{
    const char *name;
    const char *page;
    const char *pageTitle;      // translated in the "ChartRow" context
    const char *pageShortTitle; // the tab's name where the long ones do not fit
    bool tableBelow;
    RunChart *(*create)();
};

std::span<const ChartRow> chartRows();
// The index of the row named `name` in chartRows(), -1 for none.
int chartIndex(const QString &name);
QStringList chartNames();
// The tabs, in the order of their first chart.
QStringList chartPages();
// The page a chart is on; empty for no chart of that name.
QString chartPage(const QString &name);
// The title of a page's tab, translated, and its short form.
QString chartPageTitle(const QString &page);
QString chartPageShortTitle(const QString &page);

} // namespace servelab::ui
