// SPDX-License-Identifier: Apache-2.0
#include "profilepanel.h"

#include "flamegraphview.h"
#include "lab/spec/sizelist.h"
#include "profile/lockwaiters.h"
#include "session.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace servelab::ui {

namespace {

using profile::FoldedStacks;

FoldedStacks stacksOf(const lab::PointResult &point, ProfilePanel::Kind kind)
{
    switch (kind) {
    case ProfilePanel::Kind::OnCpu: return FoldedStacks::parse(point.profile.onCpu);
    case ProfilePanel::Kind::OffCpu: return FoldedStacks::parse(point.profile.offCpu);
    case ProfilePanel::Kind::LockWaits:
        return profile::LockWaiters::stacks(FoldedStacks::parse(point.profile.offCpu));
    }
    return {};
}

QString kindName(ProfilePanel::Kind kind)
{
    switch (kind) {
    case ProfilePanel::Kind::OnCpu: return QStringLiteral("on-CPU");
    case ProfilePanel::Kind::OffCpu: return QStringLiteral("off-CPU");
    case ProfilePanel::Kind::LockWaits: return QStringLiteral("lock waits");
    }
    return {};
}

} // namespace

ProfilePanel::ProfilePanel(const Session *session, QWidget *parent)
    : QWidget(parent), m_session(session), m_point(new QComboBox), m_kind(new QComboBox),
      m_baseline(new QComboBox), m_search(new QLineEdit), m_reset(new QPushButton(tr("Zoom out"))),
      m_export(new QPushButton(tr("Export…"))), m_hotspot(new QPushButton(tr("Open in hotspot"))),
      m_summary(new QLabel), m_scroll(new QScrollArea), m_graph(new FlameGraphView)
{
    m_point->setObjectName(QStringLiteral("profilePoint"));
    m_kind->setObjectName(QStringLiteral("profileKind"));
    m_baseline->setObjectName(QStringLiteral("profileBaseline"));
    m_search->setObjectName(QStringLiteral("profileSearch"));
    m_kind->addItem(tr("On-CPU"), int(Kind::OnCpu));
    m_kind->addItem(tr("Off-CPU"), int(Kind::OffCpu));
    m_kind->addItem(tr("Lock waits"), int(Kind::LockWaits));
    m_search->setPlaceholderText(tr("Search frames"));
    m_search->setClearButtonEnabled(true);
    m_point->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_hotspot->setToolTip(tr("Opens the point's perf.data in hotspot (Debian's hotspot package)"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scroll->setWidget(m_graph);
    m_scroll->setWidgetResizable(true);
    m_scroll->setAlignment(Qt::AlignBottom);
    // A flame graph is read from its root, at the bottom: a new graph opens there, and stays
    // there as its height settles (laid out when its tab is first shown), until the user
    // scrolls.
    QScrollBar *bar = m_scroll->verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (m_atBase)
            bar->setValue(max);
    });
    connect(bar, &QScrollBar::actionTriggered, this, [this] { m_atBase = false; });

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Point")));
    controls->addWidget(m_point);
    controls->addWidget(m_kind);
    controls->addWidget(new QLabel(tr("against")));
    controls->addWidget(m_baseline);
    controls->addWidget(m_search, 1);
    controls->addWidget(m_reset);
    controls->addWidget(m_export);
    controls->addWidget(m_hotspot);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);

    const auto changed = [this] { redraw(); };
    connect(m_point, &QComboBox::currentIndexChanged, this, changed);
    connect(m_kind, &QComboBox::currentIndexChanged, this, changed);
    connect(m_baseline, &QComboBox::currentIndexChanged, this, changed);
    connect(m_search, &QLineEdit::textChanged, this,
            [this](const QString &text) { m_graph->setSearch(text); });
    connect(m_reset, &QPushButton::clicked, this, [this] { m_graph->zoomTo(0); });
    connect(m_export, &QPushButton::clicked, this, &ProfilePanel::exportAsked);
    connect(m_hotspot, &QPushButton::clicked, this, &ProfilePanel::openInHotspot);
    connect(session, &Session::shownChanged, this, &ProfilePanel::reload);
    connect(session, &Session::runBegan, this, &ProfilePanel::reload);
    connect(session, &Session::pointAdded, this, [this](const lab::PointResult &point) {
        if (point.profile.requested)
            reload();
    });
    reload();
}

QString ProfilePanel::labelOf(const lab::PointResult &point, qint64 run)
{
    QString label = QStringLiteral("%1 · %2").arg(point.target, lab::formatSize(point.sizeBytes));
    if (run > 0)
        label = QStringLiteral("#%1 ").arg(run) + label;
    if (!point.profile.has())
        label += QStringLiteral(" (not profiled)");
    return label;
}

void ProfilePanel::reload()
{
    const QString was = m_point->currentText();
    const QString wasBaseline = m_baseline->currentText();
    m_points.clear();
    for (const lab::PointResult &point : m_session->points())
        if (point.profile.requested)
            m_points.append({point, labelOf(point, 0)});
    for (const Session::Overlay &overlay : m_session->overlays())
        for (const lab::PointResult &point : overlay.points)
            if (point.profile.has())
                m_points.append({point, labelOf(point, overlay.id)});
    const QSignalBlocker blockPoint(m_point);
    const QSignalBlocker blockBaseline(m_baseline);
    m_point->clear();
    m_baseline->clear();
    m_baseline->addItem(tr("nothing (one profile)"), -1);
    for (int i = 0; i < m_points.size(); ++i) {
        m_point->addItem(m_points[i].label, i);
        if (m_points[i].point.profile.has())
            m_baseline->addItem(m_points[i].label, i);
    }
    if (const int at = m_point->findText(was); at >= 0)
        m_point->setCurrentIndex(at);
    if (const int at = m_baseline->findText(wasBaseline); at >= 0)
        m_baseline->setCurrentIndex(at);
    redraw();
}

void ProfilePanel::show(int index, Kind kind, int baseline)
{
    const QSignalBlocker blockPoint(m_point);
    const QSignalBlocker blockKind(m_kind);
    const QSignalBlocker blockBaseline(m_baseline);
    m_point->setCurrentIndex(m_point->findData(index));
    m_kind->setCurrentIndex(m_kind->findData(int(kind)));
    m_baseline->setCurrentIndex(std::max(0, m_baseline->findData(baseline)));
    redraw();
}

void ProfilePanel::setSearch(const QString &text)
{
    m_search->setText(text);
}

void ProfilePanel::redraw()
{
    const int index = m_point->currentData().isValid() ? m_point->currentData().toInt() : -1;
    const Kind kind = Kind(m_kind->currentData().toInt());
    const int baseline =
        m_baseline->currentData().isValid() ? m_baseline->currentData().toInt() : -1;
    const bool any = index >= 0 && index < m_points.size();
    const lab::PointProfile *p = any ? &m_points[index].point.profile : nullptr;
    m_export->setEnabled(p && p->has());
    m_hotspot->setVisible(!QStandardPaths::findExecutable(QStringLiteral("hotspot")).isEmpty());
    m_hotspot->setEnabled(p && QFileInfo::exists(p->perfData));
    if (!p) {
        m_summary->setText(
            tr("No point of this experiment was profiled. Tick \"Profile the server\" in the "
               "wizard, add \"profile\": true to the spec, or run `servelab-cli run SPEC "
               "--profile`: each point's load then runs once more with perf attached."));
        m_graph->setTree({}, {});
        return;
    }
    QStringList lines;
    if (p->has()) {
        const QLocale locale;
        lines << tr("Profiled in a second pass of the load: %1 req/s with perf attached, %2 "
                    "without (%3 % overhead). perf.data: %4")
                     .arg(locale.toString(p->requestsPerSecond, 'f', 0),
                          locale.toString(p->unprofiledRequestsPerSecond, 'f', 0))
                     .arg(p->overheadPercent(), 0, 'f', 1)
                     .arg(p->perfData);
        const auto waiters = profile::LockWaiters::of(FoldedStacks::parse(p->offCpu));
        QStringList top;
        for (qsizetype i = 0; i < std::min<qsizetype>(3, waiters.size()); ++i)
            top << QStringLiteral("%1 (%2 ms)")
                       .arg(waiters[i].function)
                       .arg(waiters[i].micros / 1000.0, 0, 'f', 1);
        lines << (top.isEmpty() ? tr("No thread waited for a lock.")
                                : tr("Top lock waiters: %1").arg(top.join(QStringLiteral(", "))));
    }
    if (!p->note.isEmpty())
        lines << p->note;
    m_summary->setText(lines.join(u'\n'));
    const FoldedStacks stacks = stacksOf(m_points[index].point, kind);
    QString title = QStringLiteral("%1, %2").arg(m_points[index].label, kindName(kind));
    if (baseline >= 0 && baseline < m_points.size() && baseline != index) {
        title += QStringLiteral(" against %1").arg(m_points[baseline].label);
        m_graph->setTree(profile::FlameTree::diff(stacksOf(m_points[baseline].point, kind), stacks),
                         title);
    } else {
        m_graph->setTree(profile::FlameTree::of(stacks), title);
    }
    m_graph->setSearch(m_search->text());
    m_atBase = true;
    m_scroll->verticalScrollBar()->setValue(m_scroll->verticalScrollBar()->maximum());
}

QString ProfilePanel::summary() const
{
    return m_summary->text();
}

bool ProfilePanel::exportGraph(const QString &path, QString *error) const
{
    return m_graph->write(path, error);
}

void ProfilePanel::exportAsked()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the flame graph"),
                                                      QStringLiteral("flamegraph.svg"),
                                                      tr("SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    if (QString error; !exportGraph(path, &error))
        QMessageBox::warning(this, tr("Export the flame graph"), error);
}

void ProfilePanel::openInHotspot()
{
    const int index = m_point->currentData().toInt();
    if (index < 0 || index >= m_points.size())
        return;
    const QString hotspot = QStandardPaths::findExecutable(QStringLiteral("hotspot"));
    const QString data = m_points[index].point.profile.perfData;
    if (hotspot.isEmpty() || !QProcess::startDetached(hotspot, {data}))
        QMessageBox::warning(this, tr("Open in hotspot"),
                             tr("hotspot did not start: install Debian's hotspot package, or "
                                "open %1 with perf report.")
                                 .arg(data));
}

} // namespace servelab::ui
