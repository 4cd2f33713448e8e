// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDockWidget>

class QSortFilterProxyModel;
class QTableView;

namespace servelab::ui {

class ExperimentsModel;

// The run history: the experiments of the results database, newest first, searchable;
// double-click (or Show) asks to show one, the context menu to overlay the selected runs on
// what is shown, or, with several selected, to show them together (the newest, the others
// overlaid).
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
    void setOverlayShown(bool shown) { m_overlayShown = shown; }

Q_SIGNALS:
    void showRequested(qint64 experiment);
    void overlayRequested(qint64 experiment);
    void showTogetherRequested(const QList<qint64> &experiments); // newest first
    void removeOverlayRequested();

private:
    QList<qint64> selectedIds() const; // newest first
    void showMenu(const QPoint &at);

    ExperimentsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    bool m_overlayShown = false;
};

} // namespace servelab::ui
