// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;

namespace servelab::ui {

class FlameGraphView;
class Session;

// The Profile tab: the flame graph of a profiled point of the shown experiment (on-CPU,
// off-CPU or its lock waits), or the difference against another profiled point, of this run
// or of one overlaid; searchable, zoomable, exported as PNG or SVG; the perf.data opened in
// hotspot when it is installed. Above it: what profiling cost the point, its top lock
// waiters, and why a point has no profile.
class ProfilePanel : public QWidget
{
    Q_OBJECT
public:
    // Which stacks of a point are drawn.
    enum class Kind
    {
        OnCpu,
        OffCpu,
        LockWaits
    };

    explicit ProfilePanel(const Session *session, QWidget *parent = nullptr);

    // Selects the `index`th profiled point (in the point list) of `kind`, against the
    // `baseline`th one (-1: no difference).
    void show(int index, Kind kind, int baseline = -1);
    void setSearch(const QString &text);
    FlameGraphView *graph() const { return m_graph; }
    QString summary() const; // the text above the graph
    int profiledCount() const { return int(m_points.size()); }
    bool exportGraph(const QString &path, QString *error) const;

private:
    void reload();
    void redraw();
    void exportAsked();
    void openInHotspot();
    static QString labelOf(const lab::PointResult &point, qint64 run);

    const Session *m_session;
    struct Entry
    {
        lab::PointResult point;
        QString label;
    };
    QList<Entry> m_points; // profiled, and the unprofiled with a note saying why
    QComboBox *m_point;
    QComboBox *m_kind;
    QComboBox *m_baseline;
    QLineEdit *m_search;
    QPushButton *m_reset;
    QPushButton *m_export;
    QPushButton *m_hotspot;
    QLabel *m_summary;
    QScrollArea *m_scroll;
    bool m_atBase = true; // the view kept at the graph's root until the user scrolls
    FlameGraphView *m_graph;
};

} // namespace servelab::ui
