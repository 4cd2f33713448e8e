// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "jsonlocator.h"

#include <QString>
#include <QStringList>

class QJsonObject;
class QJsonValue;

namespace servelab::lab {

struct SpecField;

// Reads the parts of one spec (ExperimentSpec::parse), collecting every problem with the place
// it is at: "FILE:LINE:COLUMN: path: what is wrong". A value that is wrong gives the fallback.
class SpecReader
{
public:
    SpecReader(const QByteArray &text, const QString &fileName, QStringList *errors);

    void fail(const QString &path, const QString &what, bool atKey = false);
    // Fields other than `known` are mistakes (a typo would otherwise be silently ignored).
    void onlyKnown(const QJsonObject &object, const QString &path, const QStringList &known);
    qint64 integer(const QJsonObject &object, const QString &key, const QString &path,
                   qint64 fallback, qint64 low, qint64 high);
    // One of SpecFields: its range and default are the row's; `path` may place it
    // ("targets[2].threads").
    qint64 integer(const QJsonObject &object, const SpecField &field, const QString &path);
    bool boolean(const QJsonObject &object, const QString &key, const QString &path, bool fallback);
    QString text(const QJsonObject &object, const QString &key, const QString &path,
                 const QString &fallback);
    // A `serve` flag's value from JSON: a whole number, a string, or true/false as on/off.
    bool flagValue(const QJsonValue &v, const QString &path, QString *text);
    // A `serve` flag's name, without its dashes; the ones the target sets itself are refused.
    bool flagName(const QString &name, const QString &path, bool atKey);

    // A JSON number as a whole qint64, checked before converting: a double beyond qint64
    // (1e300) converts to undefined behaviour (found by fuzz_experimentspec under UBSan, twice).
    static bool wholeNumber(double d, qint64 *out);

private:
    JsonLocator m_locator;
    QString m_file;
    QStringList *m_errors;
};

} // namespace servelab::lab
