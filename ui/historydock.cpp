// SPDX-License-Identifier: Apache-2.0
#include "historydock.h"

#include "experimentsmodel.h"
#include "lab/results/resultstore.h"

#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace servelab::ui {

HistoryDock::HistoryDock(QWidget *parent)
    : QDockWidget(tr("Run history"), parent), m_model(new ExperimentsModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView)
{
    setObjectName(QStringLiteral("history"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto *filter = new QLineEdit;
    filter->setPlaceholderText(tr("Search runs (name, status)…"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    auto *view = m_view;
    view->setObjectName(QStringLiteral("historyView"));
    view->setModel(m_proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(ExperimentsModel::Id, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(ExperimentsModel::Name, QHeaderView::Stretch);
    view->setToolTip(tr("Double-click a run to show it; select several (Ctrl, Shift) and "
                        "right-click to show them together or overlay them"));
    const auto idAt = [](const QModelIndex &index) {
        return index.data(ExperimentsModel::IdRole).toLongLong();
    };
    connect(view, &QTableView::activated, this,
            [this, idAt](const QModelIndex &index) { Q_EMIT showRequested(idAt(index)); });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, &HistoryDock::showMenu);
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter);
    layout->addWidget(view);
    setWidget(panel);
}

QList<qint64> HistoryDock::selectedIds() const
{
    QList<qint64> ids;
    for (const QModelIndex &row : m_view->selectionModel()->selectedRows())
        ids << row.data(ExperimentsModel::IdRole).toLongLong();
    std::sort(ids.begin(), ids.end(), std::greater<>());
    return ids;
}

void HistoryDock::showMenu(const QPoint &at)
{
    const QModelIndex index = m_view->indexAt(at);
    if (!index.isValid())
        return;
    QList<qint64> ids = selectedIds();
    const qint64 clicked = index.data(ExperimentsModel::IdRole).toLongLong();
    if (!ids.contains(clicked)) // a click outside the selection is about that run alone
        ids = {clicked};
    QMenu menu;
    if (ids.size() == 1) {
        menu.addAction(tr("Show"), this, [this, clicked] { Q_EMIT showRequested(clicked); });
        menu.addAction(tr("Overlay on the shown run"), this,
                       [this, clicked] { Q_EMIT overlayRequested(clicked); });
    } else {
        menu.addAction(tr("Show these %1 together (#%2, the others overlaid)")
                           .arg(ids.size())
                           .arg(ids.first()),
                       this, [this, ids] { Q_EMIT showTogetherRequested(ids); });
        menu.addAction(tr("Overlay these %1 on the shown run").arg(ids.size()), this, [this, ids] {
            for (qint64 id : ids)
                Q_EMIT overlayRequested(id);
        });
    }
    menu.addAction(tr("Remove overlays"), this, &HistoryDock::removeOverlayRequested)
        ->setEnabled(m_overlayShown);
    menu.exec(m_view->viewport()->mapToGlobal(at));
}

bool HistoryDock::reload(const QString &database, QString *error)
{
    lab::ResultStore store;
    if (database.isEmpty() || !QFile::exists(database) || !store.open(database, error)) {
        m_model->setExperiments({});
        return error->isEmpty();
    }
    m_model->setExperiments(store.experiments());
    return true;
}

} // namespace servelab::ui
