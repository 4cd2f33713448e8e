// SPDX-License-Identifier: Apache-2.0
#include "experimentsmodel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include <algorithm>

namespace servelab::ui {

ExperimentsModel::ExperimentsModel(QObject *parent) : QAbstractTableModel(parent) {}

void ExperimentsModel::setExperiments(QList<lab::ResultStore::Experiment> experiments)
{
    std::sort(experiments.begin(), experiments.end(),
              [](const auto &a, const auto &b) { return a.id > b.id; });
    beginResetModel();
    m_rows = std::move(experiments);
    endResetModel();
}

const lab::ResultStore::Experiment *ExperimentsModel::experiment(qint64 id) const
{
    for (const auto &e : m_rows)
        if (e.id == id)
            return &e;
    return nullptr;
}

void ExperimentsModel::countPoint(qint64 id, bool dnf)
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].id != id)
            continue;
        ++m_rows[row].points;
        m_rows[row].dnfPoints += dnf ? 1 : 0;
        Q_EMIT dataChanged(index(row, Status), index(row, Points));
        return;
    }
}

int ExperimentsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ExperimentsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ExperimentsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &e = m_rows[index.row()];
    if (role == IdRole)
        return e.id;
    const QString text = lab::runStatusText(e.status);
    const QString status = e.dnfPoints > 0 ? tr("%1, %2 DNF").arg(text).arg(e.dnfPoints) : text;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Id: return e.id;
        case Name: return e.name;
        case Status: return status;
        case Started: return QLocale().toString(e.started.toLocalTime(), QLocale::ShortFormat);
        case Points: return e.points;
        }
        break;
    case Qt::UserRole:
        switch (index.column()) {
        case Id: return e.id;
        case Name: return e.name;
        case Status: return status;
        case Started: return e.started;
        case Points: return e.points;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == Status && e.status == lab::RunStatus::Interrupted)
            return tr("ServeLab stopped during this run (killed or crashed); the points it had "
                      "measured are kept");
        return e.name;
    case Qt::ForegroundRole:
        if (index.column() == Status &&
            (e.status == lab::RunStatus::Failed || e.status == lab::RunStatus::Interrupted))
            return QBrush(QColor(0xb0, 0x00, 0x20));
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == Id || index.column() == Points)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

QVariant ExperimentsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Id: return tr("#");
    case Name: return tr("Experiment");
    case Status: return tr("Status");
    case Started: return tr("Started");
    case Points: return tr("Points");
    }
    return {};
}

} // namespace servelab::ui
