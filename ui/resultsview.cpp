// SPDX-License-Identifier: Apache-2.0
#include "resultsview.h"

#include "chartfile.h"
#include "chartrow.h"
#include "chartview.h"
#include "lab/results/resultexport.h"
#include "lab/spec/sizelist.h"
#include "pointseries.h"
#include "resultstablemodel.h"
#include "runchart.h"
#include "session.h"

#include <QChartView>
#include <QEvent>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace servelab::ui {

namespace {

QList<quint64> sizesOf(const QList<lab::PointResult> &points)
{
    QList<quint64> sizes;
    for (const auto &p : points)
        if (!sizes.contains(p.sizeBytes))
            sizes << p.sizeBytes;
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

// The start of a run on its own clock: its first point's, or its first server sample's.
std::int64_t originOf(const QList<lab::PointResult> &points)
{
    std::int64_t origin = -1;
    const auto take = [&origin](std::int64_t t) {
        if (t > 0)
            origin = origin < 0 ? t : std::min(origin, t);
    };
    for (const auto &p : points) {
        take(p.startedAtMicros);
        for (const auto &s : p.serverSamples)
            if (s.alive)
                take(s.atMicros);
    }
    return origin;
}

} // namespace

ResultsView::ResultsView(const Session *session, QObject *parent)
    : QObject(parent), m_session(session), m_model(new ResultsTableModel(this)),
      m_table(new QTableView), m_compare(new QTableWidget(0, 5)), m_comparePage(new QWidget),
      m_compareHint(new QLabel)
{
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(Qt::UserRole);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(ResultsTableModel::Size, Qt::AscendingOrder);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTextElideMode(Qt::ElideMiddle); // "epoll+sendf…threshold=64K": both ends read
    m_table->setColumnWidth(ResultsTableModel::Target, 200); // with its swatch: a whole name

    // A page per chartPages() name; more than one widget on it (charts, the table) stack in a
    // splitter, the first chart taking most of the height.
    const auto rows = chartRows();
    const QStringList pages = ui::chartPages();
    QList<QList<QWidget *>> stacks(pages.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        RunChart *chart = rows[i].create();
        m_charts.push_back(chart);
        auto &stack = stacks[pages.indexOf(QString::fromLatin1(rows[i].page))];
        stack << chart;
        if (rows[i].tableBelow)
            stack << m_table;
        chart->installEventFilter(this);
        connect(chart, &RunChart::drawAgain, this, [this, i] {
            m_stale[i] = true;
            refresh(int(i));
        });
    }
    m_stale.assign(rows.size(), false);
    for (const auto &stack : stacks) {
        if (stack.size() == 1) {
            m_pages << stack.front();
            continue;
        }
        auto *splitter = new QSplitter(Qt::Vertical);
        for (QWidget *w : stack)
            splitter->addWidget(w);
        if (stack.contains(m_table)) {
            // The chart takes most of the room, the table what shows a target's sizes at a
            // glance (six rows at 1280×800; drag the handle for more).
            splitter->setStretchFactor(0, 3);
            splitter->setStretchFactor(1, 2);
            splitter->setSizes({300, 200});
            m_table->setMinimumHeight(60);
        }
        m_pages << splitter;
    }

    m_compare->setObjectName(QStringLiteral("compare"));
    m_compare->horizontalHeader()->setStretchLastSection(true);
    m_compare->verticalHeader()->hide();
    m_compare->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_compareHint->setObjectName(QStringLiteral("compareHint"));
    m_compareHint->setWordWrap(true);
    auto *compareLayout = new QVBoxLayout(m_comparePage);
    compareLayout->addWidget(m_compareHint);
    compareLayout->addWidget(m_compare, 1);
    fillComparison();
    connect(session, &Session::runBegan, this, &ResultsView::begin);
    connect(session, &Session::pointAdded, this, &ResultsView::addPoint);
    connect(session, &Session::shownChanged, this, &ResultsView::show);
}

bool ResultsView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Show)
        for (std::size_t c = 0; c < m_charts.size(); ++c)
            if (m_charts[c] == watched)
                refresh(int(c));
    return QObject::eventFilter(watched, event);
}

bool ResultsView::drawsNow(int chart)
{
    if (!m_stale[std::size_t(chart)] && m_charts[std::size_t(chart)]->isVisible())
        return true;
    m_stale[std::size_t(chart)] = true;
    return false;
}

RunView ResultsView::runView() const
{
    RunView run{m_session->points(), withOverlays(), m_sizes, {}};
    if (run.sizes.isEmpty())
        run.sizes = sizesOf(run.overlaid);
    if (m_liveSerial != 0 && m_live.startedAtMicros > m_lastFinishedStart)
        run.live = m_live;
    return run;
}

void ResultsView::refresh(int chart) const
{
    if (!m_stale[std::size_t(chart)])
        return;
    m_stale[std::size_t(chart)] = false;
    m_charts[std::size_t(chart)]->draw(runView());
    m_charts[std::size_t(chart)]->fitLegend();
}

RunChart *ResultsView::chart(const QString &name) const
{
    const int i = chartIndex(name);
    if (i < 0)
        return nullptr;
    refresh(i);
    return m_charts[std::size_t(i)];
}

ResultsView::~ResultsView() = default;

void ResultsView::releaseViews()
{
    for (RunChart *chart : m_charts)
        static_cast<ChartView *>(chart->view())->release();
}

void ResultsView::begin(const QList<quint64> &sizes)
{
    m_liveSerial = 0;
    m_live = {};
    m_lastFinishedStart = -1;
    show();
    m_sizes = sizes; // the size axis holds the planned sizes from the start
    for (std::size_t c = 0; c < m_charts.size(); ++c) {
        m_stale[c] = true;
        if (m_charts[c]->isVisible())
            refresh(int(c));
    }
}

void ResultsView::addPoint(const lab::PointResult &point)
{
    m_lastFinishedStart = point.startedAtMicros;
    m_model->addPoint(point);
    // One series more where a chart draws one per point, not all of them again; a chart off
    // screen is drawn when it is shown.
    const RunView run = runView();
    for (std::size_t c = 0; c < m_charts.size(); ++c)
        if (drawsNow(int(c))) {
            m_charts[c]->addPoint(point, run);
            m_charts[c]->fitLegend();
        }
}

double ResultsView::applyLive(const lab::LiveFeed::Update &update)
{
    // A point whose result has arrived is drawn whole already.
    if (update.serial == 0 || update.startedAtMicros <= m_lastFinishedStart)
        return -1;
    if (update.serial != m_liveSerial) {
        m_liveSerial = update.serial;
        m_live = {update.target, update.startedAtMicros, {}, {}, {}};
    }
    // A change tuned in is marked on the live lines at once, not when the point ends.
    m_live.tunes.insert(m_live.tunes.end(), update.tune.begin(), update.tune.end());
    if (update.client.empty() && update.server.empty() && update.tune.empty())
        return -1;
    for (const auto &s : update.server)
        if (s.alive)
            m_live.fds.append({double(s.atMicros), double(s.total)});
    // The client threads sample on one 100 ms grid: a slot sums them.
    for (const auto &t : update.client) {
        auto &slot =
            m_live.bySlot[(t.endMicros + LivePoint::slotMicros / 2) / LivePoint::slotMicros];
        slot.requests += t.completed;
        slot.bytes += t.bytesRead;
        slot.intervalMicros = std::max<qint64>(slot.intervalMicros, t.intervalMicros);
    }
    // The status line says requests/s now, whichever measure the chart shows.
    const auto last = m_live.bySlot.isEmpty() ? LivePoint::Slot() : m_live.bySlot.last();
    const double requestsNow =
        last.intervalMicros > 0 ? double(last.requests) * 1e6 / double(last.intervalMicros) : 0;
    for (std::size_t c = 0; c < m_charts.size(); ++c)
        if (drawsNow(int(c)))
            m_charts[c]->drawLive(m_live);
    return requestsNow;
}

void ResultsView::show()
{
    releaseViews();
    m_sizes.clear();
    m_model->clear();
    for (const auto &p : m_session->points())
        m_model->addPoint(p);
    // Every chart drawn again, now if it is on screen. Stacked by type and the process's three
    // lines show the shown run only (another run's layers would stack on them).
    for (std::size_t c = 0; c < m_charts.size(); ++c) {
        m_stale[c] = true;
        if (m_charts[c]->isVisible())
            refresh(int(c));
    }
    fillComparison();
}

QList<lab::PointResult> ResultsView::withOverlays() const
{
    QList<lab::PointResult> all = m_session->points();
    const std::int64_t origin = originOf(all);
    for (const auto &overlay : m_session->overlays()) {
        const std::int64_t theirs = originOf(overlay.points);
        const std::int64_t shift = origin > 0 && theirs > 0 ? origin - theirs : 0;
        for (lab::PointResult p : overlay.points) {
            p.target = overlayName(p.target, overlay.id);
            if (p.startedAtMicros > 0)
                p.startedAtMicros += shift;
            for (auto &sample : p.serverSamples)
                sample.atMicros += shift;
            all << p;
        }
    }
    return all;
}

// The ratio at each size against every overlaid run: one pair of columns per run, a row per
// target and size that any of them compares.
QString ResultsView::compareHint() const
{
    const auto &overlays = m_session->overlays();
    if (overlays.isEmpty())
        return tr("Nothing to compare yet. Select two or more runs in the Run history (Ctrl- or "
                  "Shift-click): the newest is shown, the others overlaid, and here are the KiB/s "
                  "of each at every size with the ratio.");
    // First what the runs were set up to measure differently: then a ratio compares two
    // setups, not a change in a server.
    QString setups;
    for (const auto &o : overlays) {
        const QString run = tr("#%1 %2").arg(o.id).arg(o.name.toHtmlEscaped());
        if (o.setupDiffers) {
            QStringList items;
            for (const QString &line : o.setup)
                items << QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
            setups += tr("<p><b>%1 was set up differently from the shown run</b> — its ratios "
                         "compare two setups, not a change in a server:</p><ul>%2</ul>")
                          .arg(run, items.join(QString()));
        } else {
            setups += QStringLiteral("<p>%1: %2</p>")
                          .arg(run, o.setup.isEmpty() ? tr("the same setup as the shown run")
                                                      : o.setup.join(u' ').toHtmlEscaped());
        }
    }
    if (std::all_of(overlays.cbegin(), overlays.cend(),
                    [](const Session::Overlay &o) { return o.comparison.rows.isEmpty(); }))
        return setups + tr("These runs have no target measured at the same size under the same "
                           "name, so there is no ratio to give: compare runs of the same targets.");
    return setups +
           tr("Each ratio is the shown run's KiB/s over the overlaid run's. Where both repeated "
              "the point and their 95 % intervals overlap, the ratio is marked ≈ and greyed: "
              "within the noise of the repetitions; where Welch's test finds a difference, it "
              "says faster or slower (hover for the interval, the p99 and the server's CPU per "
              "request).");
}

void ResultsView::fillComparison()
{
    m_compareHint->setText(compareHint());
    m_compare->clear();
    m_compare->setRowCount(0);
    QStringList header{tr("Target"), tr("File size"), tr("KiB/s (shown)")};
    for (const auto &o : m_session->overlays())
        header << tr("KiB/s (#%1)").arg(o.id) << tr("Ratio to #%1").arg(o.id);
    if (m_session->overlays().isEmpty())
        header << tr("KiB/s (overlay)") << tr("Ratio");
    m_compare->setColumnCount(int(header.size()));
    m_compare->setHorizontalHeaderLabels(header);
    QList<std::pair<QString, quint64>> keys;
    for (const auto &o : m_session->overlays())
        for (const auto &row : o.comparison.rows)
            if (!keys.contains(std::pair{row.target, row.sizeBytes}))
                keys << std::pair{row.target, row.sizeBytes};
    const auto number = [](double kib) {
        return kib > 0 ? QLocale().toString(kib, 'f', 2) : tr("DNF");
    };
    for (const auto &key : keys) {
        const QString &target = key.first; // (not a structured binding: lambdas capture these)
        const quint64 size = key.second;
        const int r = m_compare->rowCount();
        m_compare->insertRow(r);
        QStringList cells{target, lab::formatSize(size), QString()};
        QHash<int, QString> tips; // by column: Welch's interval and what moved with the ratio
        for (const auto &o : m_session->overlays()) {
            const auto row = std::find_if(
                o.comparison.rows.cbegin(), o.comparison.rows.cend(),
                [&](const auto &x) { return x.target == target && x.sizeBytes == size; });
            if (row == o.comparison.rows.cend()) {
                cells << QStringLiteral("–") << QStringLiteral("–");
                continue;
            }
            cells[2] = number(row->kibThis);
            const QString ratio = QLocale().toString(row->ratio(), 'f', 3);
            using Verdict = lab::RunComparison::Verdict;
            const QString verdict = (row->verdict == Verdict::Faster   ? tr(" faster")
                                     : row->verdict == Verdict::Slower ? tr(" slower")
                                                                       : QString()) +
                                    (o.setupDiffers && (row->verdict == Verdict::Faster ||
                                                        row->verdict == Verdict::Slower)
                                         ? tr(" (other setup)")
                                         : QString());
            cells << number(row->kibOther)
                  << (row->dnf           ? QStringLiteral("–")
                      : row->withinNoise ? QStringLiteral("≈ ") + ratio
                                         : ratio + verdict);
            if (!row->dnf)
                tips.insert(
                    int(cells.size()) - 1,
                    tr("%1: 95 % interval of the ratio %2 … %3 (Welch)\np99 %4 ms against "
                       "%5 ms\nserver CPU %6 µs/req against %7")
                        .arg(QLatin1StringView(lab::RunComparison::verdictName(row->verdict)))
                        .arg(row->ratioLow, 0, 'f', 3)
                        .arg(row->ratioHigh, 0, 'f', 3)
                        .arg(row->p99MsThis, 0, 'f', 3)
                        .arg(row->p99MsOther, 0, 'f', 3)
                        .arg(row->serverCpuThis < 0 ? tr("–")
                                                    : QString::number(row->serverCpuThis, 'f', 1))
                        .arg(row->serverCpuOther < 0
                                 ? tr("–")
                                 : QString::number(row->serverCpuOther, 'f', 1)));
        }
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (tips.contains(c))
                item->setToolTip(tips.value(c));
            if (cells[c].startsWith(u'≈')) {
                item->setForeground(m_compare->palette().color(QPalette::Disabled, QPalette::Text));
                item->setToolTip(tr("Within the noise: the two runs' 95 % intervals overlap") +
                                 u'\n' + tips.value(c));
            }
            m_compare->setItem(r, c, item);
        }
    }
}

bool ResultsView::exportChart(const QString &name, const QString &path, QString *error, qreal scale,
                              QSize fallback, QSize size) const
{
    const RunChart *shown = chart(name);
    if (!shown) {
        *error = tr("there is no chart '%1' (%2)").arg(name, chartNames().join(u", "));
        return false;
    }
    QChartView *view = shown->view();
    // A chart in a tab not shown yet has no size of its own.
    if (!view->isVisible())
        view->resize(fallback);
    shown->fitLegend();
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
               ? chartfile::writeSvg(view, path, error)
               : chartfile::writePng(view, path, error, scale, size);
}

QSize ResultsView::shownSize(const QString &name) const
{
    const int i = chartIndex(name);
    return i < 0 ? QSize() : m_charts[std::size_t(i)]->size();
}

bool ResultsView::exportChartData(const QString &name, const QString &path, QString *error) const
{
    const RunChart *shown = chart(name);
    if (!shown) {
        *error = tr("there is no chart '%1' (%2)").arg(name, chartNames().join(u", "));
        return false;
    }
    return lab::writeTextFile(path, shown->dataCsv(runView()), error);
}

} // namespace servelab::ui
