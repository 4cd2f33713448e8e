// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"

#include <QAbstractTableModel>
#include <QList>
#include <QStringList>

namespace servelab::ui {

// The points of a sweep as rows: the seed's table, with the other figures beside it.
class ResultsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Size,
        Target,
        KibPerSecond,
        RequestsPerSecond,
        MeanMs,
        P99Ms,
        Errors,
        ServerCpuPerRequest, // the server's CPU µs per request; the tooltip has every cost
        Verdict,             // what limited the point; the tooltip says why
        Status,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void clear();
    void addPoint(const lab::PointResult &point);
    const QList<lab::PointResult> &points() const { return m_points; } // without timelines

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<lab::PointResult> m_points;
    QStringList m_targets; // in the order their colours go (targetOrder)
};

} // namespace servelab::ui
