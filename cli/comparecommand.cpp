// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "lab/results/comparisonreport.h"
#include "lab/results/resultstore.h"
#include "lab/results/runsource.h"

#include <QSaveFile>
#include <QTextStream>

namespace servelab::cli {

namespace {

// "5%", "5" or "0.5%": a share of the baseline; false for anything else.
bool parseShare(QString text, double *share)
{
    text = text.trimmed();
    if (text.endsWith(u'%'))
        text.chop(1);
    bool ok = false;
    const double percent = text.toDouble(&ok);
    if (!ok || percent < 0 || percent >= 100)
        return false;
    *share = percent / 100;
    return true;
}

} // namespace

int compareCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(
        QStringLiteral("compare"),
        QStringLiteral("Compares a candidate run with a baseline: at each target and size both "
                       "measured, the ratio of mean KiB/s with its 95 % interval (Welch's test "
                       "over the repetitions), the p99 and server CPU per request shifts, and a "
                       "verdict: faster, slower or no significant difference. What the runs were "
                       "set up to measure differently is listed first (then a slower size is named "
                       "a difference of setups, not a regression), then the machine facts that "
                       "differ. A run is an experiment id "
                       "(in --db), a "
                       "bundle.json, a database (its latest run) or DATABASE#ID. Exit status: 0, "
                       "1 with --fail-if-slower when a size regressed, 2 for bad arguments."));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("baseline"), QStringLiteral("The run to compare with."));
    p.addPositionalArgument(QStringLiteral("candidate"), QStringLiteral("The run compared."));
    cl.addDatabaseOptions(QStringLiteral("Results database for ids"));
    p.addOptions({
        {QStringLiteral("fail-if-slower"),
         QStringLiteral("Exit 1, with a line per regression, when a size is significantly slower "
                        "by more than this share (5%)."),
         QStringLiteral("percent")},
        {QStringLiteral("junit"), QStringLiteral("Also write the comparison as JUnit XML."),
         QStringLiteral("file")},
        {QStringLiteral("min-effect"),
         QStringLiteral("A difference smaller than this share is no significant difference, "
                        "whatever the test says (default 1%: runs on a shared machine drift "
                        "that much)."),
         QStringLiteral("percent")},
    });
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    if (p.positionalArguments().size() != 2)
        return cl.usageError(QStringLiteral("compare wants two runs: BASELINE CANDIDATE"), err);
    double threshold = 0;
    const bool gate = p.isSet(QStringLiteral("fail-if-slower"));
    if (gate && !parseShare(p.value(QStringLiteral("fail-if-slower")), &threshold))
        return cl.usageError(QStringLiteral("--fail-if-slower wants a share of the baseline under "
                                            "100 %, as 5%; got '%1'")
                                 .arg(p.value(QStringLiteral("fail-if-slower"))),
                             err);
    double minEffect = lab::RunComparison::defaultMinEffect;
    if (p.isSet(QStringLiteral("min-effect")) &&
        !parseShare(p.value(QStringLiteral("min-effect")), &minEffect))
        return cl.usageError(QStringLiteral("--min-effect wants a share under 100 %, as 1%; got "
                                            "'%1'")
                                 .arg(p.value(QStringLiteral("min-effect"))),
                             err);
    const QString db = cl.database();
    lab::RunSource baseline;
    lab::RunSource candidate;
    QString error;
    if (!lab::RunSource::load(p.positionalArguments()[0], db, &baseline, &error) ||
        !lab::RunSource::load(p.positionalArguments()[1], db, &candidate, &error))
        return cl.usageError(error, err);
    const lab::RunComparison comparison =
        lab::RunComparison::of(candidate.points, baseline.points, minEffect);
    if (comparison.rows.isEmpty())
        return cl.usageError(
            QStringLiteral("%1 and %2 share no target at any size: nothing to compare")
                .arg(baseline.label, candidate.label),
            err);
    const lab::ComparisonReport report(comparison, baseline.machine, candidate.machine,
                                       baseline.spec, candidate.spec);
    out << "baseline:  " << baseline.label << "\ncandidate: " << candidate.label << '\n'
        << report.text();
    if (p.isSet(QStringLiteral("junit"))) {
        QSaveFile file(p.value(QStringLiteral("junit")));
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(report.junit(threshold, baseline.label + QStringLiteral(" vs ") +
                                                   candidate.label)) < 0 ||
            !file.commit())
            return cl.usageError(
                QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString()),
                err);
    }
    if (!gate)
        return exitOk;
    const QStringList regressions = report.regressions(threshold);
    for (const QString &line : regressions)
        err << line << '\n';
    return regressions.isEmpty() ? exitOk : exitFailure;
}

} // namespace servelab::cli
