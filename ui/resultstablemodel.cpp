// SPDX-License-Identifier: Apache-2.0
#include "resultstablemodel.h"

#include "charts/chartframe.h"
#include "charts/pointseries.h"
#include "lab/results/bottleneck.h"
#include "lab/results/pointcost.h"
#include "lab/spec/sizelist.h"

#include <QPalette>

namespace servelab::ui {

void ResultsTableModel::clear()
{
    beginResetModel();
    m_points.clear();
    m_targets.clear();
    endResetModel();
}

void ResultsTableModel::addPoint(const lab::PointResult &point)
{
    const int row = static_cast<int>(m_points.size());
    beginInsertRows({}, row, row);
    m_points.append(point.summary()); // the table shows totals
    m_targets = targetOrder(m_points);
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
    case ServerCpuPerRequest: return tr("Server µs/req");
    case Verdict: return tr("Limited by");
    case Status: return tr("Status");
    default: return {};
    }
}

namespace {

// Every figure of what the point cost, one per line: the cost cell's tooltip.
QString costTip(const lab::PointResult &p)
{
    QStringList lines;
    for (const lab::PointCost &cost : lab::PointCost::rows())
        if (const QString value = cost.text(p); !value.isEmpty())
            lines << QStringLiteral("%1: %2").arg(QString::fromUtf8(cost.label), value);
    if (!p.costNote.isEmpty())
        lines << p.costNote;
    return lines.join(u'\n');
}

} // namespace

QVariant ResultsTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto &p = m_points.at(index.row());
    const auto &l = p.load;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(index.column() == Target || index.column() == Status ||
                                           index.column() == Verdict
                                       ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                       : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    // A client-bound point measured the client: greyed, as on the charts.
    if (role == Qt::ForegroundRole &&
        p.verdict ==
            QLatin1StringView(lab::Bottleneck::row(lab::Bottleneck::Kind::ClientBound).name))
        return QVariant::fromValue(QPalette().brush(QPalette::Disabled, QPalette::Text));
    // The target's swatch: its colour on every chart (targetOrder).
    if (role == Qt::DecorationRole && index.column() == Target)
        return targetPen(int(m_targets.indexOf(p.target)), darkPalette()).color();
    if (role == Qt::ToolTipRole && index.column() == ServerCpuPerRequest)
        return costTip(p);
    if (role == Qt::ToolTipRole && index.column() == Verdict)
        return p.verdict.isEmpty() ? QVariant() : QVariant(p.verdictWhy);
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
    if (p.dnf &&
        (column == RequestsPerSecond || column == MeanMs || column == P99Ms || column == Errors))
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
    case ServerCpuPerRequest: {
        const double cost = lab::PointCost::serverCpu().of(p);
        if (cost < 0)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("–"));
        return sort ? QVariant(cost) : QVariant(lab::PointCost::serverCpu().text(p));
    }
    case Verdict: return p.verdict;
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
