// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QJsonArray;
class QJsonValue;

namespace servelab::lab {

class SpecReader;

// One scripted change inside a point (a target's "tune" in the spec): `at_ms` after the point
// starts, the built-in server takes these name=value assignments (ServerTuning's).
struct TuneStep
{
    int atMs = 0;
    QStringList assignments; // "threads=8"

    bool operator==(const TuneStep &) const = default;
};

// A target's "tune": [{"at_ms": 5000, "threads": 8}, …], read, checked and written back.
class TunePlan
{
public:
    static constexpr int latestMs = 3'600'000;

    // Each problem goes to the reader with its place ("targets[0].tune[1].threads: …").
    static QList<TuneStep> read(SpecReader &reader, const QJsonValue &value, const QString &path);
    static QJsonArray toJson(const QList<TuneStep> &steps);
    // What is wrong with the steps (empty: nothing): a time out of range, an option that is
    // unknown, has a bad value or cannot change while a server of `mode` runs.
    static QString problem(const QList<TuneStep> &steps, const QString &mode);
    // The steps as one line, as the wizard's Tune field shows and reads them:
    // "5000 ms: threads=8 max-downloads=4; 9000 ms: chunk=64K".
    static QString toText(const QList<TuneStep> &steps);
    // False with one line (the first wrong step, in ServerTuning's words) when it is not that.
    static bool fromText(const QString &text, QList<TuneStep> *steps, QString *error,
                         const QString &mode = {});
};

} // namespace servelab::lab
