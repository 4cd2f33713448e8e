// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

namespace servelab::profile {

// Stacks with a weight each, in the "folded" text Brendan Gregg's flame graph tools read and
// write: one line a stack, its frames root first joined by ';', a space, the weight
// ("main;serve;sendfile 1234"). The weight is time in µs: on-CPU (perf's cpu-clock periods)
// or off-CPU (from a thread's switch out to its switch back in).
class FoldedStacks
{
public:
    // Frames root first; a ';' in a name becomes ':' so that the text reads back the same.
    void add(const QStringList &frames, double micros);
    void add(const QString &stack, double micros) { m_weights[stack] += micros; }
    // Only the stacks `keep` accepts (it sees the frames root first).
    template<typename Keep>
    FoldedStacks filtered(Keep keep) const
    {
        FoldedStacks out;
        for (auto it = m_weights.cbegin(); it != m_weights.cend(); ++it)
            if (keep(it.key().split(u';')))
                out.add(it.key(), it.value());
        return out;
    }

    double total() const;
    bool isEmpty() const { return m_weights.isEmpty(); }
    qsizetype size() const { return m_weights.size(); }
    const QHash<QString, double> &weights() const { return m_weights; }
    // Frames in the median stack, weighted: under 4 a profile cannot say much (no frame
    // pointers, no symbols).
    int medianDepth() const;

    // Sorted, the weights rounded to whole µs: the same stacks give the same text.
    QString text() const;
    // Lines that do not read as "stack weight" are skipped; `skipped` counts them.
    static FoldedStacks parse(const QString &text, int *skipped = nullptr);

private:
    QHash<QString, double> m_weights;
};

} // namespace servelab::profile
