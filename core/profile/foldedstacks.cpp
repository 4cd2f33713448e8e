// SPDX-License-Identifier: Apache-2.0
#include "foldedstacks.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace servelab::profile {

void FoldedStacks::add(const QStringList &frames, double micros)
{
    QStringList clean = frames;
    for (QString &frame : clean)
        frame.replace(u';', u':');
    add(clean.join(u';'), micros);
}

double FoldedStacks::total() const
{
    double sum = 0;
    for (const double w : m_weights)
        sum += w;
    return sum;
}

int FoldedStacks::medianDepth() const
{
    std::vector<std::pair<int, double>> depths;
    for (auto it = m_weights.cbegin(); it != m_weights.cend(); ++it)
        depths.emplace_back(int(it.key().count(u';')) + 1, it.value());
    if (depths.empty())
        return 0;
    std::sort(depths.begin(), depths.end());
    const double half = total() / 2;
    double seen = 0;
    for (const auto &[depth, weight] : depths) {
        seen += weight;
        if (seen >= half)
            return depth;
    }
    return depths.back().first;
}

QString FoldedStacks::text() const
{
    QStringList stacks = m_weights.keys();
    stacks.sort();
    QString out;
    for (const QString &stack : stacks)
        out += stack + u' ' + QString::number(std::llround(m_weights.value(stack))) + u'\n';
    return out;
}

FoldedStacks FoldedStacks::parse(const QString &text, int *skipped)
{
    FoldedStacks out;
    int bad = 0;
    for (const QStringView line : QStringView(text).split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype space = line.lastIndexOf(u' ');
        bool ok = false;
        const double weight = space > 0 ? line.mid(space + 1).toDouble(&ok) : 0;
        if (!ok || weight < 0) {
            ++bad;
            continue;
        }
        out.add(line.left(space).toString(), weight);
    }
    if (skipped)
        *skipped = bad;
    return out;
}

} // namespace servelab::profile
