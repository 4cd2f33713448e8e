// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/resultstore.h"

#include <QAbstractTableModel>
#include <QList>

namespace servelab::ui {

// The run history: the experiments of a results database, newest first, one row each with its
// status (running, done, cancelled, interrupted, failed, and how many points did not finish).
// Sorting uses Qt::UserRole (numbers and times as such), searching the display text.
class ExperimentsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Id,
        Name,
        Status,
        Started,
        Points,
        ColumnCount
    };
    static constexpr int IdRole = Qt::UserRole + 1; // the experiment's id, in every column

    explicit ExperimentsModel(QObject *parent = nullptr);

    void setExperiments(QList<lab::ResultStore::Experiment> experiments);
    const lab::ResultStore::Experiment *experiment(qint64 id) const;
    // A point of the running experiment was kept: its row counts it without a database read.
    void countPoint(qint64 id, bool dnf);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<lab::ResultStore::Experiment> m_rows;
};

} // namespace servelab::ui
