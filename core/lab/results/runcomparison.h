// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QList>
#include <QString>

namespace servelab::lab {

// Two runs side by side: for each target and size both measured (repetitions averaged, DNF
// where either did not finish), KiB/s of each and their ratio, this run over the other, with
// Welch's test of the difference: its 95 % interval as a ratio and a verdict. And the p99 and
// the server's CPU per request of each, for what moved with it.
struct RunComparison
{
    enum class Verdict
    {
        Faster,
        Slower,
        NoDifference, // the 95 % interval of the difference holds 0
        Untested,     // fewer than 2 repetitions on a side: no interval
        Dnf,
    };
    static const char *verdictName(Verdict verdict); // "faster", "no significant difference", …

    struct Row
    {
        QString target;
        quint64 sizeBytes = 0;
        double kibThis = 0;  // 0 when DNF
        double kibOther = 0; // 0 when DNF
        bool dnf = false;    // either run did not finish it: no ratio
        // Both runs repeated the point (2 or more each) and their 95 % intervals overlap: the
        // ratio is within the noise of the repetitions, not a difference shown.
        bool withinNoise = false;
        // Welch's 95 % interval of (this - other), over the other's mean: where the ratio lies.
        double ratioLow = 0;
        double ratioHigh = 0;
        Verdict verdict = Verdict::Untested;
        double p99MsThis = 0; // the repetitions' p99s averaged
        double p99MsOther = 0;
        double serverCpuThis = -1; // µs per request, averaged; -1 when not read
        double serverCpuOther = -1;
        double ratio() const { return dnf || kibOther <= 0 ? 0 : kibThis / kibOther; }
    };
    QList<Row> rows; // by target (in this run's order), then size

    // A difference Welch's test finds but smaller than `minEffect` (a share of the other's
    // mean) is no significant difference: on a shared machine a run drifts by that much.
    static constexpr double defaultMinEffect = 0.01;
    static RunComparison of(const QList<PointResult> &thisRun, const QList<PointResult> &other,
                            double minEffect = defaultMinEffect);
    // The rows as a table a spreadsheet reads: target, size, both KiB/s, ratio, within noise.
    QString toTsv() const;
};

} // namespace servelab::lab
