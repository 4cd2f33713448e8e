// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace servelab::lab {

// A kept run named on a command line: an experiment id in the results database, a bundle.json,
// a database file (its latest experiment) or DATABASE#ID. What `compare` reads.
struct RunSource
{
    QString label; // "#12 strategies" or the bundle's path: how reports name it
    QJsonObject machine;
    QByteArray spec; // as it ran; empty where it was not kept
    QList<PointResult> points;

    // `defaultDatabase` is where an id alone is looked for. False with *error naming the
    // argument and what to give instead.
    static bool load(const QString &argument, const QString &defaultDatabase, RunSource *run,
                     QString *error);
};

} // namespace servelab::lab
