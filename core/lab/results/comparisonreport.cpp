// SPDX-License-Identifier: Apache-2.0
#include "comparisonreport.h"

#include "lab/spec/sizelist.h"
#include "setupdifferences.h"

#include <QMap>
#include <QXmlStreamWriter>

namespace servelab::lab {

namespace {

using Row = RunComparison::Row;
using Verdict = RunComparison::Verdict;

QString percent(double ratio)
{
    const double change = (ratio - 1) * 100;
    return QStringLiteral("%1%2 %")
        .arg(change >= 0 ? QStringLiteral("+") : QString())
        .arg(change, 0, 'f', 1);
}

QString shiftMs(const Row &r)
{
    const double shift = r.p99MsThis - r.p99MsOther;
    return QStringLiteral("%1%2 ms")
        .arg(shift >= 0 ? QStringLiteral("+") : QString())
        .arg(shift, 0, 'f', 3);
}

QString costShift(const Row &r)
{
    if (r.serverCpuThis < 0 || r.serverCpuOther <= 0)
        return QStringLiteral("-");
    return percent(r.serverCpuThis / r.serverCpuOther);
}

QString interval(const Row &r)
{
    if (r.verdict == Verdict::Dnf)
        return QStringLiteral("-");
    if (r.verdict == Verdict::Untested)
        return QStringLiteral("%1").arg(r.ratio(), 0, 'f', 3);
    return QStringLiteral("%1 (%2..%3)")
        .arg(r.ratio(), 0, 'f', 3)
        .arg(r.ratioLow, 0, 'f', 3)
        .arg(r.ratioHigh, 0, 'f', 3);
}

} // namespace

ComparisonReport::ComparisonReport(const RunComparison &comparison,
                                   const QJsonObject &baselineMachine,
                                   const QJsonObject &candidateMachine,
                                   const QByteArray &baselineSpec, const QByteArray &candidateSpec)
    : m_comparison(comparison), m_setup(SetupDifferences::of(baselineSpec, candidateSpec)),
      m_setupsDiffer(SetupDifferences::kept(baselineSpec) &&
                     SetupDifferences::kept(candidateSpec) && !m_setup.isEmpty()),
      m_differences(machineDifferences(baselineMachine, candidateMachine))
{}

QStringList ComparisonReport::machineDifferences(const QJsonObject &baseline,
                                                 const QJsonObject &candidate)
{
    const QMap<QString, QString> a = SetupDifferences::flattened(baseline);
    const QMap<QString, QString> b = SetupDifferences::flattened(candidate);
    QStringList keys = a.keys() + b.keys();
    keys.removeDuplicates();
    keys.sort();
    QStringList out;
    const QString none = QStringLiteral("(not recorded)");
    for (const QString &key : keys)
        if (a.value(key, none) != b.value(key, none))
            out << QStringLiteral("%1: %2 → %3").arg(key, a.value(key, none), b.value(key, none));
    return out;
}

QString ComparisonReport::text() const
{
    QString out;
    if (m_setupsDiffer) {
        out += QStringLiteral("setups that differ: the ratios below compare two different "
                              "experiments, not a change in a server\n");
        for (const QString &line : m_setup)
            out += QStringLiteral("  ") + line + u'\n';
    } else if (m_setup.isEmpty()) {
        out += QStringLiteral("setup: the same experiment in both runs\n");
    } else {
        out += m_setup.join(u'\n') + u'\n';
    }
    if (m_differences.isEmpty()) {
        out += QStringLiteral("machine: the same facts in both runs\n");
    } else {
        out += QStringLiteral("machine facts that differ (they may explain what follows):\n");
        for (const QString &line : m_differences)
            out += QStringLiteral("  ") + line + u'\n';
    }
    out += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
               .arg(QStringLiteral("target"), -28)
               .arg(QStringLiteral("size"), -5)
               .arg(QStringLiteral("baseline KiB/s"), 14)
               .arg(QStringLiteral("candidate KiB/s"), 15)
               .arg(QStringLiteral("ratio (95 % interval)"), -24)
               .arg(QStringLiteral("p99 shift"), 11)
               .arg(QStringLiteral("server µs/req"), 13)
               .arg(QStringLiteral("verdict"));
    for (const Row &r : m_comparison.rows)
        out +=
            QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                .arg(r.target, -28)
                .arg(formatSize(r.sizeBytes), -5)
                .arg(r.kibOther > 0 ? QString::number(r.kibOther, 'f', 2) : QStringLiteral("DNF"),
                     14)
                .arg(r.kibThis > 0 ? QString::number(r.kibThis, 'f', 2) : QStringLiteral("DNF"), 15)
                .arg(interval(r), -24)
                .arg(r.verdict == Verdict::Dnf ? QStringLiteral("-") : shiftMs(r), 11)
                .arg(costShift(r), 13)
                .arg(QLatin1StringView(RunComparison::verdictName(r.verdict)) +
                     (m_setupsDiffer &&
                              (r.verdict == Verdict::Faster || r.verdict == Verdict::Slower)
                          ? QStringLiteral(" (other setup)")
                          : QString()));
    return out;
}

bool ComparisonReport::regressed(const Row &row, double threshold) const
{
    return row.verdict == Verdict::Slower && row.ratio() <= 1 - threshold;
}

QStringList ComparisonReport::regressions(double threshold) const
{
    QStringList out;
    for (const Row &r : m_comparison.rows)
        if (regressed(r, threshold))
            // Between two setups a slower size is the other setup's doing, not a regression.
            out << QStringLiteral("%1: %2 %3: %4 KiB/s against %5, %6 (95 %: %7..%8), "
                                  "past the %9 allowed")
                       .arg(m_setupsDiffer ? QStringLiteral("slower with the other setup")
                                           : QStringLiteral("regression"),
                            r.target, formatSize(r.sizeBytes))
                       .arg(r.kibThis, 0, 'f', 2)
                       .arg(r.kibOther, 0, 'f', 2)
                       .arg(percent(r.ratio()), percent(r.ratioLow), percent(r.ratioHigh))
                       .arg(QStringLiteral("%1 %").arg(threshold * 100, 0, 'g', 3));
    return out;
}

QByteArray ComparisonReport::junit(double threshold, const QString &suiteName) const
{
    int failures = 0;
    int errors = 0;
    int skipped = 0;
    for (const Row &r : m_comparison.rows) {
        failures += regressed(r, threshold) ? 1 : 0;
        errors += r.verdict == Verdict::Dnf ? 1 : 0;
        skipped += r.verdict == Verdict::Untested ? 1 : 0;
    }
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), suiteName);
    w.writeAttribute(QStringLiteral("tests"), QString::number(m_comparison.rows.size()));
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    w.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
    if (!m_differences.isEmpty() || m_setupsDiffer) {
        w.writeStartElement(QStringLiteral("properties"));
        for (const auto &[name, lines] :
             {std::pair{QStringLiteral("setup differs"), m_setupsDiffer ? m_setup : QStringList()},
              std::pair{QStringLiteral("machine differs"), m_differences}})
            for (const QString &line : lines) {
                w.writeStartElement(QStringLiteral("property"));
                w.writeAttribute(QStringLiteral("name"), name);
                w.writeAttribute(QStringLiteral("value"), line);
                w.writeEndElement();
            }
        w.writeEndElement();
    }
    for (const Row &r : m_comparison.rows) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), r.target);
        w.writeAttribute(QStringLiteral("name"), formatSize(r.sizeBytes));
        const QString summary = QStringLiteral("%1: ratio %2, p99 %3, server CPU/req %4")
                                    .arg(QLatin1StringView(RunComparison::verdictName(r.verdict)),
                                         interval(r), shiftMs(r), costShift(r));
        if (regressed(r, threshold)) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), summary);
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("slower"));
            w.writeEndElement();
        } else if (r.verdict == Verdict::Dnf) {
            w.writeStartElement(QStringLiteral("error"));
            w.writeAttribute(QStringLiteral("message"),
                             QStringLiteral("did not finish in one of the runs"));
            w.writeEndElement();
        } else if (r.verdict == Verdict::Untested) {
            w.writeStartElement(QStringLiteral("skipped"));
            w.writeAttribute(QStringLiteral("message"),
                             QStringLiteral("fewer than 2 repetitions: no test"));
            w.writeEndElement();
        }
        w.writeTextElement(QStringLiteral("system-out"), summary);
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

} // namespace servelab::lab
