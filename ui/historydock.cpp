// SPDX-License-Identifier: Apache-2.0
#include "historydock.h"

#include "experimentsmodel.h"
#include "lab/results/resultstore.h"

#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace servelab::ui {

HistoryDock::HistoryDock(QWidget *parent)
    : QDockWidget(tr("Run history"), parent), m_model(new ExperimentsModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_view(new QTableView),
      m_compare(new QPushButton(tr("&Compare"))), m_runAgain(new QPushButton(tr("Run a&gain"))),
      m_removeOverlays(new QPushButton(tr("Remove &overlays")))
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
    view->setToolTip(tr("Select a run to show it; select several (Ctrl, Shift) to show the "
                        "newest with the others overlaid"));
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setResizeContentsPrecision(100); // rows looked at, not all
    view->horizontalHeader()->setSectionResizeMode(ExperimentsModel::Name, QHeaderView::Stretch);
    view->setWordWrap(false);
    const auto idAt = [](const QModelIndex &index) {
        return index.data(ExperimentsModel::IdRole).toLongLong();
    };
    connect(view, &QTableView::activated, this,
            [this, idAt](const QModelIndex &index) { Q_EMIT showRequested(idAt(index)); });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, &HistoryDock::showMenu);
    connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HistoryDock::selectionChanged);
    m_compare->setObjectName(QStringLiteral("compareRuns"));
    m_compare->setToolTip(tr("The selected runs side by side: KiB/s and the ratio at each size"));
    m_runAgain->setObjectName(QStringLiteral("runAgain"));
    m_runAgain->setToolTip(tr("Run the selected experiment again, as it was specified"));
    m_removeOverlays->setObjectName(QStringLiteral("removeOverlays"));
    connect(m_compare, &QPushButton::clicked, this,
            [this] { Q_EMIT compareRequested(selectedIds()); });
    connect(m_runAgain, &QPushButton::clicked, this,
            [this] { Q_EMIT runAgainRequested(selectedIds().value(0)); });
    connect(m_removeOverlays, &QPushButton::clicked, this, &HistoryDock::removeOverlayRequested);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(filter, 1);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_runAgain);
    buttons->addWidget(m_removeOverlays);
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(view);
    setWidget(panel);
    selectionChanged();
}

void HistoryDock::setOverlayShown(bool shown)
{
    m_overlayShown = shown;
    m_removeOverlays->setEnabled(shown);
}

// What is selected is what is shown; the buttons follow what they can do with it.
void HistoryDock::selectionChanged()
{
    const QList<qint64> ids = selectedIds();
    m_compare->setEnabled(ids.size() >= 2);
    m_runAgain->setEnabled(ids.size() == 1);
    m_removeOverlays->setEnabled(m_overlayShown);
    if (ids.size() == 1)
        Q_EMIT showRequested(ids.first());
    else if (ids.size() > 1)
        Q_EMIT showTogetherRequested(ids);
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
        menu.addAction(tr("Run again"), this,
                       [this, clicked] { Q_EMIT runAgainRequested(clicked); });
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
        menu.addAction(tr("Compare these %1").arg(ids.size()), this,
                       [this, ids] { Q_EMIT compareRequested(ids); });
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
