#pragma once

#include <QDockWidget>

class QSortFilterProxyModel;

namespace servelab::ui {

class ExperimentsModel;

// The run history: the experiments of the results database, newest first, searchable;
// double-click (or Show) asks to show one, the context menu to overlay one on what is shown.
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
    void removeOverlayRequested();

private:
    ExperimentsModel *m_model;
    QSortFilterProxyModel *m_proxy;
    bool m_overlayShown = false;
};

} // namespace servelab::ui
