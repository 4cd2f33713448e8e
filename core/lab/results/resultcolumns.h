// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QJsonObject>
#include <QStringList>
#include <QVariant>

#include <span>

namespace servelab::lab {

// How the values of one figure become one: over a target's repetitions at one size
// (results.csv), or over the load agents' shares of one point (DistributedLoad).
enum class ResultMerge
{
    None,          // not merged there
    Sum,           // counts
    Max,           // a maximum, a gauge, or what is the same in each (a target, a rate offered)
    All,           // a check that passes only if it passes in each
    Mean,          // an average over the parts
    MeanByRequests // an average over requests: each part weighted by its ok requests
};

// One figure of a point, or of one of its samples: its database column, its key in a bundle,
// its column in runs.csv, how to read and write it, and how repetitions and agents merge it.
// ResultStore (its INSERTs and SELECTs, and the columns it adds to an older database),
// ResultBundle (its writer and reader), runs.csv, results.csv and DistributedLoad follow these
// lists, so a new figure is a row here and its producer; each of the server's counters is
// such a row already, made from ServerStats' table. What is not a scalar keeps a shape of its
// own in each store: the latency histogram, the error counts by kind, the fds left open, the
// sample lists (runs.csv's latency and TLS columns are rows read from the histograms).
template<typename T>
struct ResultColumn
{
    const char *sql;  // the column; nullptr: not in the database
    const char *json; // the bundle's key; nullptr: not in a bundle
    QVariant (*get)(const T &);
    void (*set)(T *, const QVariant &); // nullptr: derived (kib_per_s), written for other readers
    // runs.csv's header; nullptr: not there. Its columns come in the rows' order, the cost per
    // request (PointCost's rows) after the first table's.
    const char *csv = nullptr;
    // Whether the figure was measured for this one: an empty CSV cell where not.
    bool (*measured)(const T &) = nullptr;
    // results.csv carries it, merged so, when not None (its header: csv, else json).
    ResultMerge repetitions = ResultMerge::None;
    // The load agents' shares of one point make it so (ResultColumns::mergeAgents).
    ResultMerge agents = ResultMerge::None;
    int decimals = -1; // a fraction in the CSVs: this many decimals (-1: as it comes)
};

class ResultColumns
{
public:
    static std::span<const ResultColumn<PointResult>> point();
    static std::span<const ResultColumn<client::ClientSample>> clientSample();
    // A server sample's at_us is from its point's start: the stores shift it, the row does not.
    static std::span<const ResultColumn<metrics::ProcessSample>> serverSample();

    // The index of the point row before which runs.csv puts the cost per request (PointCost's
    // rows): after the first table's rows.
    static std::size_t csvCostAt();
    // runs.csv: the header, and a point's cells (empty where the figure was not measured).
    static QStringList csvNames();
    static QStringList csvCells(const PointResult &point);
    // The columns that results.csv merges over a target's repetitions at one size: the header,
    // and the cells of `points` merged (empty where one of them was not measured).
    static QStringList mergedNames();
    static QStringList mergedCells(const QList<const PointResult *> &points);
    // The load agents' shares of one point (each as its agent measured it) into `into`: every
    // row with an `agents` merge. The histograms and error counts are LoadResult::merge's.
    static void mergeAgents(const QList<const PointResult *> &shares, PointResult *into);
    // `values` (weighted by `requests` for MeanByRequests) made one, as `how` says.
    static QVariant merged(ResultMerge how, const QVariantList &values,
                           const QList<double> &requests);
    // A value as the CSVs write it: numbers with `decimals` (when not -1), checks as 1 or 0,
    // text quoted where it must be.
    static QString csvText(const QVariant &value, int decimals);

    // The database's column names, in the rows' order.
    template<typename T>
    static QStringList sqlNames(std::span<const ResultColumn<T>> columns);
    // The values for those columns, in the same order.
    template<typename T>
    static QVariantList sqlValues(std::span<const ResultColumn<T>> columns, const T &value);
    // Sets `value` from the values of those columns, in the same order.
    template<typename T>
    static void fromSql(std::span<const ResultColumn<T>> columns, const QVariantList &row,
                        T *value);
    // The bundle's keys; a key the JSON lacks leaves the field at what the setter makes of null.
    template<typename T>
    static void toJson(std::span<const ResultColumn<T>> columns, const T &value, QJsonObject *out);
    template<typename T>
    static void fromJson(std::span<const ResultColumn<T>> columns, const QJsonObject &in, T *value);
};

} // namespace servelab::lab
