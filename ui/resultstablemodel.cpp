// SPDX-License-Identifier: Apache-2.0
#include "resultstablemodel.h"

#include "lab/spec/sizelist.h"

namespace servelab::ui {

void ResultsTableModel::clear()
{
    beginResetModel();
    m_points.clear();
    endResetModel();
}

void ResultsTableModel::addPoint(const lab::PointResult &point)
{
    const int row = static_cast<int>(m_points.size());
    beginInsertRows({}, row, row);
    m_points.append(point.summary()); // the table shows totals
    endInsertRows();
}

int ResultsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_points.size());
}

int ResultsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Size: return tr("File size");
    case Target: return tr("Target");
    case KibPerSecond: return tr("KiB/s");
    case RequestsPerSecond: return tr("req/s");
    case MeanMs: return tr("Mean ms");
    case P99Ms: return tr("p99 ms");
    case Errors: return tr("Errors");
    case Status: return tr("Status");
    default: return {};
    }
}

QVariant ResultsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &p = m_points.at(index.row());
    const auto &l = p.load;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Target || index.column() == Status
                                       ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                       : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole) // the whole name where the column elides it, else the reason
        return index.column() == Target ? QVariant(p.target)
               : p.reason.isEmpty()     ? QVariant()
                                        : QVariant(p.reason);
    // The sort role gives numbers, so the table sorts 4K before 1M and 900 before 10000.
    const bool sort = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !sort)
        return {};
    // A point that did not finish has no figures: a dash, not zeros (its status says why).
    const int column = index.column();
    if (p.dnf && (column == RequestsPerSecond || column == MeanMs || column == P99Ms))
        return sort ? QVariant(-1.0) : QVariant(QStringLiteral("–"));
    switch (column) {
    case Size: return sort ? QVariant(p.sizeBytes) : QVariant(lab::formatSize(p.sizeBytes));
    case Target: return p.target;
    case KibPerSecond:
        if (p.dnf)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("DNF"));
        return sort ? QVariant(p.kibPerSecond())
                    : QVariant(QString::number(p.kibPerSecond(), 'f', 2));
    case RequestsPerSecond:
        return sort ? QVariant(l.requestsPerSecond())
                    : QVariant(QString::number(l.requestsPerSecond(), 'f', 1));
    case MeanMs:
        return sort ? QVariant(l.latency.mean())
                    : QVariant(QString::number(l.latency.mean() / 1000.0, 'f', 3));
    case P99Ms: {
        const auto p99 = l.latency.valueAtPercentile(99);
        return sort ? QVariant(qint64(p99)) : QVariant(QString::number(p99 / 1000.0, 'f', 3));
    }
    case Errors: return QVariant(qulonglong(l.failed()));
    case Status: {
        const QString status = p.dnf                ? tr("DNF: %1").arg(p.reason)
                               : p.reason.isEmpty() ? tr("done")
                                                    : p.reason;
        const QString tuned = lab::describeTuneEvents(p.tuneEvents, p.startedAtMicros);
        return tuned.isEmpty() ? status : status + QStringLiteral(" · ") + tuned;
    }
    default: return {};
    }
}

} // namespace servelab::ui
