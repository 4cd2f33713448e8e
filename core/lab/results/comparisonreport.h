// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runcomparison.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace servelab::lab {

// A candidate run against a baseline, as `servelab-cli compare` reports it: the machine facts
// that differ (above everything: they explain a difference in numbers), then a row per target
// and size with both KiB/s, the ratio and its 95 % interval, the p99 and server-CPU shifts and
// the verdict; the regressions past a threshold; the same as JUnit XML for CI systems.
class ComparisonReport
{
public:
    ComparisonReport(const RunComparison &comparison, const QJsonObject &baselineMachine,
                     const QJsonObject &candidateMachine);

    // "cpu_affinity: 0-1 → 0", one per fact that differs (nested objects by dotted key).
    static QStringList machineDifferences(const QJsonObject &baseline,
                                          const QJsonObject &candidate);

    QString text() const;
    // The rows significantly slower by more than `threshold` (0.05: 5 %): one line each.
    QStringList regressions(double threshold) const;
    // A testsuite of one testcase per row (classname the target, name the size); a regression
    // past `threshold` is a failure, a DNF an error, an untested row skipped.
    QByteArray junit(double threshold, const QString &suiteName) const;

private:
    bool regressed(const RunComparison::Row &row, double threshold) const;

    RunComparison m_comparison;
    QStringList m_differences;
};

} // namespace servelab::lab
