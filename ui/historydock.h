// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace servelab::ui {

class ExperimentsModel;

// The run history: the experiments of the results database, newest first, searchable. What is
// selected is shown: one run, or several together (the newest, the others overlaid). Buttons
// under the list compare the selected runs, run the selected one again and take overlays away;
// the context menu also overlays runs on what is shown without changing it.
class HistoryDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit HistoryDock(QWidget *parent = nullptr);

    ExperimentsModel *model() const { return m_model; }
    // Reads the database again (a path that does not exist yet shows nothing); false with
    // *error when it cannot be read.
    bool reload(const QString &database, QString *error);
    // Whether "Remove overlay" has something to remove.
    void setOverlayShown(bool shown);

Q_SIGNALS:
    void showRequested(qint64 experiment);
    void overlayRequested(qint64 experiment);
    void showTogetherRequested(const QList<qint64> &experiments); // newest first
    void removeOverlayRequested();
    void compareRequested(const QList<qint64> &experiments); // shown together, on Compare
    void runAgainRequested(qint64 experiment);

private:
    QList<qint64> selectedIds() const; // newest first
    void showMenu(const QPoint &at);
    void selectionChanged();

    ExperimentsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    QPushButton *m_compare;
    QPushButton *m_runAgain;
    QPushButton *m_removeOverlays;
    bool m_overlayShown = false;
};

} // namespace servelab::ui
