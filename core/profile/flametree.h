// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "foldedstacks.h"

#include <QString>

#include <vector>

namespace servelab::profile {

// A profile's stacks merged into a tree, the root's children first: what a flame graph draws,
// each frame as wide as its share of the whole. Children are in name order (a flame graph's
// x axis is not time), so two profiles of the same code line up.
//
// Differential (diff()): the frames of both profiles, each with its share in either (shares,
// not raw weights, so a longer recording is not "more"); a frame is as wide as the mean of its
// two shares (so that what vanished still shows, and children still fit in their parent), and
// delta() says what grew or shrank.
class FlameTree
{
public:
    struct Node
    {
        QString name;
        double weight = 0;   // µs, with its callees (the candidate's in a diff)
        double baseline = 0; // µs in the baseline (diff only)
        int parent = -1;
        int depth = 0; // the root is 0
        std::vector<int> children;
    };

    static FlameTree of(const FoldedStacks &stacks);
    static FlameTree diff(const FoldedStacks &baseline, const FoldedStacks &candidate);

    const std::vector<Node> &nodes() const { return m_nodes; }
    const Node &node(int i) const { return m_nodes[std::size_t(i)]; }
    bool isDiff() const { return m_diff; }
    int maxDepth() const { return m_maxDepth; }
    double total() const { return m_nodes.front().weight; }
    // The first frame (depth first, by index) named `name`; -1 for none.
    int find(const QString &name) const;

    // A frame's share of its profile (0..1); in a diff, the mean of its two shares.
    double share(int i) const;
    // A diff's change in share: candidate's minus baseline's (−1..1); 0 outside a diff.
    double delta(int i) const;
    // The share of the whole spent in frames whose name contains `text` (case-insensitive),
    // frames nested in a matching frame counted once.
    double matchedShare(const QString &text) const;

private:
    int childNamed(int parent, const QString &name);
    void insert(const QString &stack, double weight, bool baseline);
    void finish();

    std::vector<Node> m_nodes = std::vector<Node>(1, Node{QStringLiteral("all"), 0, 0, -1, 0, {}});
    bool m_diff = false;
    double m_baselineTotal = 0;
    int m_maxDepth = 0;
};

} // namespace servelab::profile
