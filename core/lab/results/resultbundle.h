// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace servelab::lab {

// A run in one JSON file (bundle.json): the spec it ran, the machine it ran on, and every point
// whole — figures, errors by kind, latency histogram (HdrHistogram-encoded), both timelines —
// so it can be sent, archived and imported into another results database.
struct ResultBundle
{
    static constexpr int version = 1;

    QString name;
    QByteArray spec;     // the experiment's JSON, as run
    QJsonObject machine; // machineFacts()
    QList<PointResult> points;

    QByteArray toJson() const;
    // False with *error naming what is wrong (not JSON, another version, a point it cannot read).
    static bool fromJson(const QByteArray &json, ResultBundle *bundle, QString *error);
    // The bundle in a file (servelab-cli import, the window's Open); *error names the file.
    static bool readFile(const QString &path, ResultBundle *bundle, QString *error);

    // One point as the bundle keeps it (its samples' times from the point's start): also what
    // a load agent sends of its share of a distributed point.
    static QJsonObject pointToJson(const PointResult &point);
    static bool pointFromJson(const QJsonObject &object, PointResult *point);
    // A latency histogram: its counts in HdrHistogram's V2 encoding and its exact min, max,
    // sum and sum of squares, so that histograms merged after the trip are the one all their
    // values would have made (the agents' are merged bucket by bucket, never by percentile).
    static QJsonObject latencyToJson(const client::LatencyHistogram &histogram);
    static bool latencyFromJson(const QJsonObject &object, client::LatencyHistogram *histogram);
};

} // namespace servelab::lab
