// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QJsonObject>
#include <QStringList>
#include <QVariant>

#include <span>

namespace servelab::lab {

// One scalar of a point or of one of its samples: its database column, its key in a bundle, its
// column in runs.csv, and how to read and write it. ResultStore (its INSERTs and SELECTs, and
// the columns it adds to an older database), ResultBundle (its writer and reader) and runs.csv
// follow these lists, so a new figure is a row here and its producer; each of the server's
// counters is such a row already, made from ServerStats' table. What is not a scalar keeps a
// shape of its own in each store: the latency histogram, the error counts by kind, the fds left
// open, the sample lists.
template<typename T>
struct ResultColumn
{
    const char *sql;  // the column; nullptr: not in the database
    const char *json; // the bundle's key; nullptr: not in a bundle
    QVariant (*get)(const T &);
    void (*set)(T *, const QVariant &); // nullptr: derived (kib_per_s), written for other readers
    // runs.csv's header, after its own columns (resultexport.cpp); nullptr: not there.
    const char *csv = nullptr;
    // Whether the figure was measured for this one: an empty runs.csv cell where not.
    bool (*measured)(const T &) = nullptr;
    // How the repetitions of a target and size combine it in results.csv (a sum, a maximum);
    // nullptr: results.csv does not carry it.
    void (*merge)(T *into, const T &from) = nullptr;
};

class ResultColumns
{
public:
    static std::span<const ResultColumn<PointResult>> point();
    static std::span<const ResultColumn<client::ClientSample>> clientSample();
    // A server sample's at_us is from its point's start: the stores shift it, the row does not.
    static std::span<const ResultColumn<metrics::ProcessSample>> serverSample();

    // The point's columns that runs.csv carries: the header, and a point's values (null where
    // the figure was not measured).
    static QStringList csvNames();
    static QVariantList csvValues(const PointResult &point);
    // The columns that results.csv merges over a target's repetitions at one size: the header,
    // and the values of `points` merged (null where one of them was not measured).
    static QStringList mergedNames();
    static QVariantList mergedValues(const QList<const PointResult *> &points);

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
