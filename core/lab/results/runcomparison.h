// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "pointresult.h"

#include <QList>
#include <QString>

namespace servelab::lab {

// Two runs side by side: for each target and size both measured (repetitions averaged, DNF
// where either did not finish), KiB/s of each and their ratio, this run over the other.
struct RunComparison
{
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
        double ratio() const { return dnf || kibOther <= 0 ? 0 : kibThis / kibOther; }
    };
    QList<Row> rows; // by target (in this run's order), then size

    static RunComparison of(const QList<PointResult> &thisRun, const QList<PointResult> &other);
    // The rows as a table a spreadsheet reads: target, size, both KiB/s, ratio, within noise.
    QString toTsv() const;
};

} // namespace servelab::lab
