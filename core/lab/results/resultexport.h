// SPDX-License-Identifier: Apache-2.0
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
// One row per point (target × size) over its repetitions (results.csv of an experiment):
// KiB/s mean, sample deviation, 95 % interval, coefficient of variation and the noisy flag
// (above 5 %), the requests and errors summed, latency percentiles of all repetitions merged.
QString formatSummaryCsv(const QList<PointResult> &points);
// The timelines (samples.csv): one row per point and 100 ms slot from the point's start, the
// client's figures beside the server process's (fds by type, limit, threads, RSS, CPU), empty
// where one side has no sample in that slot (the server is still watched while it drains).
QString formatTimelineCsv(const QList<PointResult> &points);
// Each point's latency histogram as one line of an HdrHistogram interval log (latency.hlog),
// tagged with the point ("p3_epoll+sendfile_4K_r1"), on the run's clock.
QString formatPointsHdrLog(const QList<PointResult> &points);
// A server sample's columns in those files (empty when there is none or the process is gone;
// the types empty in samples that did not read them); the CPU shares come from `previous`.
QStringList processColumns(const metrics::ProcessSample *sample,
                           const metrics::ProcessSample *previous);
QString processCsvHeader();

// Writes `text` atomically (QSaveFile): the file is either complete or untouched.
bool writeTextFile(const QString &path, const QString &text, QString *error);

} // namespace servelab::lab
