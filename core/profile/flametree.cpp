// SPDX-License-Identifier: Apache-2.0
#include "flametree.h"

#include <algorithm>
#include <functional>

namespace servelab::profile {

int FlameTree::childNamed(int parent, const QString &name)
{
    for (const int child : m_nodes[std::size_t(parent)].children)
        if (m_nodes[std::size_t(child)].name == name)
            return child;
    Node node;
    node.name = name;
    node.parent = parent;
    node.depth = m_nodes[std::size_t(parent)].depth + 1;
    m_maxDepth = std::max(m_maxDepth, node.depth);
    m_nodes.push_back(std::move(node));
    const int index = int(m_nodes.size()) - 1;
    m_nodes[std::size_t(parent)].children.push_back(index);
    return index;
}

void FlameTree::insert(const QString &stack, double weight, bool baseline)
{
    int at = 0;
    (baseline ? m_nodes[0].baseline : m_nodes[0].weight) += weight;
    for (const QString &frame : stack.split(u';')) {
        at = childNamed(at, frame);
        (baseline ? m_nodes[std::size_t(at)].baseline : m_nodes[std::size_t(at)].weight) += weight;
    }
}

void FlameTree::finish()
{
    for (Node &node : m_nodes)
        std::sort(node.children.begin(), node.children.end(), [this](int a, int b) {
            return m_nodes[std::size_t(a)].name < m_nodes[std::size_t(b)].name;
        });
}

FlameTree FlameTree::of(const FoldedStacks &stacks)
{
    FlameTree tree;
    for (auto it = stacks.weights().cbegin(); it != stacks.weights().cend(); ++it)
        tree.insert(it.key(), it.value(), false);
    tree.finish();
    return tree;
}

FlameTree FlameTree::diff(const FoldedStacks &baseline, const FoldedStacks &candidate)
{
    FlameTree tree;
    tree.m_diff = true;
    for (auto it = candidate.weights().cbegin(); it != candidate.weights().cend(); ++it)
        tree.insert(it.key(), it.value(), false);
    for (auto it = baseline.weights().cbegin(); it != baseline.weights().cend(); ++it)
        tree.insert(it.key(), it.value(), true);
    tree.m_baselineTotal = tree.m_nodes[0].baseline;
    tree.finish();
    return tree;
}

int FlameTree::find(const QString &name) const
{
    for (int i = 0; i < int(m_nodes.size()); ++i)
        if (m_nodes[std::size_t(i)].name == name)
            return i;
    return -1;
}

double FlameTree::share(int i) const
{
    const Node &n = node(i);
    const double mine = total() > 0 ? n.weight / total() : 0;
    if (!m_diff)
        return mine;
    return (mine + (m_baselineTotal > 0 ? n.baseline / m_baselineTotal : 0)) / 2;
}

double FlameTree::delta(int i) const
{
    if (!m_diff)
        return 0;
    const Node &n = node(i);
    return (total() > 0 ? n.weight / total() : 0) -
           (m_baselineTotal > 0 ? n.baseline / m_baselineTotal : 0);
}

double FlameTree::matchedShare(const QString &text) const
{
    if (text.isEmpty() || total() <= 0)
        return 0;
    double matched = 0;
    // Depth first; a match counts its whole subtree, which is then not searched further.
    std::function<void(int)> visit = [&](int i) {
        if (i != 0 && node(i).name.contains(text, Qt::CaseInsensitive)) {
            matched += node(i).weight;
            return;
        }
        for (const int child : node(i).children)
            visit(child);
    };
    visit(0);
    return matched / total();
}

} // namespace servelab::profile
