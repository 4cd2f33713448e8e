#pragma once

#include "pointresult.h"

#include <QList>
#include <QString>

namespace servelab::lab {

// The seed's table (rows = file size, one column of KiB/s per target, DNF where it failed),
// aligned for a terminal.
QString formatSeedTable(const QList<PointResult> &points);
// The same table tab-separated (table.tsv), to paste into a spreadsheet as the seed did.
QString formatSeedTsv(const QList<PointResult> &points);
// One row per point with every figure; the header names the units.
QString formatCsv(const QList<PointResult> &points);
QStringList csvColumns();

// Writes `text` atomically (QSaveFile): the file is either complete or untouched.
bool writeTextFile(const QString &path, const QString &text, QString *error);

} // namespace servelab::lab
