// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "runcomparison.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace servelab::lab {

// A candidate run against a baseline, as `servelab-cli compare` reports it: what the two were
// set up to measure differently (SetupDifferences: first, since then a ratio compares two
// experiments, and the verdicts and regressions say so), the machine facts that differ (they explain a
// difference in numbers), then a row per target and size with both KiB/s, the ratio and its
// 95 % interval, the p99 and server-CPU shifts and the verdict; the regressions past a
// threshold; the same as JUnit XML for CI systems.
class ComparisonReport
{
public:
    ComparisonReport(const RunComparison &comparison, const QJsonObject &baselineMachine,
                     const QJsonObject &candidateMachine, const QByteArray &baselineSpec,
                     const QByteArray &candidateSpec);

    // "cpu_affinity: 0-1 → 0", one per fact that differs (nested objects by dotted key).
    static QStringList machineDifferences(const QJsonObject &baseline,
                                          const QJsonObject &candidate);

    // The setup lines (SetupDifferences::of), and whether both setups were kept and differ:
    // then a slower row is named a difference between setups, not a regression.
    const QStringList &setupDifferences() const { return m_setup; }
    bool setupsDiffer() const { return m_setupsDiffer; }

    QString text() const;
    // The rows significantly slower by more than `threshold` (0.05: 5 %): one line each,
    // "regression: …", or "slower with the other setup: …" when the setups differ.
    QStringList regressions(double threshold) const;
    // A testsuite of one testcase per row (classname the target, name the size); a regression
    // past `threshold` is a failure, a DNF an error, an untested row skipped.
    QByteArray junit(double threshold, const QString &suiteName) const;

private:
    bool regressed(const RunComparison::Row &row, double threshold) const;

    RunComparison m_comparison;
    QStringList m_setup;
    bool m_setupsDiffer = false;
    QStringList m_differences;
};

} // namespace servelab::lab
