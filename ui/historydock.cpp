#include "historydock.h"

#include "experimentsmodel.h"
#include "lab/resultstore.h"

#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace servelab::ui {

HistoryDock::HistoryDock(QWidget *parent)
    : QDockWidget(tr("Run history"), parent), m_model(new ExperimentsModel(this)),
      m_proxy(new QSortFilterProxyModel(this))
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
    auto *view = new QTableView;
    view->setObjectName(QStringLiteral("historyView"));
    view->setModel(m_proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(ExperimentsModel::Id, Qt::DescendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(ExperimentsModel::Name, QHeaderView::Stretch);
    view->setToolTip(tr("Double-click a run to show it"));
    const auto idAt = [](const QModelIndex &index) {
        return index.data(ExperimentsModel::IdRole).toLongLong();
    };
    connect(view, &QTableView::activated, this,
            [this, idAt](const QModelIndex &index) { Q_EMIT showRequested(idAt(index)); });
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, [this, view, idAt](const QPoint &at) {
        const QModelIndex index = view->indexAt(at);
        if (!index.isValid())
            return;
        const qint64 id = idAt(index);
        QMenu menu;
        menu.addAction(tr("Show"), this, [this, id] { Q_EMIT showRequested(id); });
        menu.addAction(tr("Overlay on the shown run"), this,
                       [this, id] { Q_EMIT overlayRequested(id); });
        menu.addAction(tr("Remove overlay"), this, &HistoryDock::removeOverlayRequested)
            ->setEnabled(m_overlayShown);
        menu.exec(view->viewport()->mapToGlobal(at));
    });
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter);
    layout->addWidget(view);
    setWidget(panel);
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
