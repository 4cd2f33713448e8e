// SPDX-License-Identifier: Apache-2.0
#include "flamegraphpainter.h"

#include <QColor>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace servelab::ui {

namespace {

constexpr qreal titleHeight = 24;
constexpr qreal statusHeight = 20;

// Flame graph colours: warm, stable per name (the same function keeps its colour across
// graphs); kernel frames browner; a search match violet.
QColor frameColour(const QString &name)
{
    const uint hash = qHash(name);
    if (name.endsWith(QStringLiteral(" [k]")))
        return QColor::fromHsv(25 + int(hash % 15), 120 + int(hash % 60), 200);
    return QColor::fromHsv(int(hash % 50), 140 + int((hash >> 8) % 90),
                           230 + int((hash >> 16) % 25));
}

// A diff: red where the frame grew, blue where it shrank, white where it kept its share.
QColor diffColour(double delta, double largest)
{
    const double strength = largest > 0 ? std::min(1.0, std::abs(delta) / largest) : 0;
    const int fade = 255 - int(std::lround(200 * strength));
    return delta >= 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255);
}

} // namespace

qreal FlameGraphPainter::top() const
{
    return m_title.isEmpty() ? 0 : titleHeight;
}

qreal FlameGraphPainter::heightFor() const
{
    return top() + (m_tree->maxDepth() + 1) * rowHeight + statusHeight;
}

bool FlameGraphPainter::underZoom(int node) const
{
    for (int at = node; at >= 0; at = m_tree->node(at).parent)
        if (at == m_zoom)
            return true;
    return false;
}

std::vector<FlameGraphPainter::Box> FlameGraphPainter::layout(qreal width) const
{
    std::vector<Box> boxes;
    const qreal bottom = top() + (m_tree->maxDepth() + 1) * rowHeight;
    const auto rowOf = [&](int depth) { return bottom - (depth + 1) * rowHeight; };
    // The zoomed frame's callers: full width.
    for (int at = m_tree->node(m_zoom).parent; at >= 0; at = m_tree->node(at).parent)
        boxes.push_back({at, QRectF(0, rowOf(m_tree->node(at).depth), width, rowHeight - 1)});
    const double zoomShare = m_tree->share(m_zoom);
    if (zoomShare <= 0)
        return boxes;
    const qreal perShare = width / zoomShare;
    // Depth first from the zoomed frame, children left to right in name order.
    struct Pending
    {
        int node;
        qreal x;
    };
    std::vector<Pending> stack{{m_zoom, 0}};
    while (!stack.empty()) {
        const Pending p = stack.back();
        stack.pop_back();
        const qreal w = m_tree->share(p.node) * perShare;
        if (w < 1)
            continue;
        boxes.push_back({p.node, QRectF(p.x, rowOf(m_tree->node(p.node).depth), w, rowHeight - 1)});
        qreal x = p.x;
        for (const int child : m_tree->node(p.node).children) {
            stack.push_back({child, x});
            x += m_tree->share(child) * perShare;
        }
    }
    return boxes;
}

int FlameGraphPainter::nodeAt(const QPointF &pos, qreal width) const
{
    for (const Box &box : layout(width))
        if (box.rect.contains(pos))
            return box.node;
    return -1;
}

QString FlameGraphPainter::describe(int node) const
{
    const auto &n = m_tree->node(node);
    QString text =
        QStringLiteral("%1 — %2 %").arg(n.name).arg(100 * m_tree->share(node), 0, 'f', 2);
    if (m_tree->isDiff())
        return text + QStringLiteral(" (%1%2 points against the baseline)")
                          .arg(m_tree->delta(node) >= 0 ? QStringLiteral("+") : QString())
                          .arg(100 * m_tree->delta(node), 0, 'f', 2);
    return text + QStringLiteral(" (%1 ms)").arg(n.weight / 1000.0, 0, 'f', 1);
}

void FlameGraphPainter::paint(QPainter *painter, const QRectF &area) const
{
    painter->save();
    painter->translate(area.topLeft());
    const qreal width = area.width();
    painter->fillRect(QRectF(0, 0, width, area.height()), Qt::white);
    QFont font = painter->font();
    font.setPointSizeF(8.5);
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    if (!m_title.isEmpty()) {
        QFont bold = font;
        bold.setBold(true);
        bold.setPointSizeF(10);
        painter->setFont(bold);
        painter->setPen(Qt::black);
        painter->drawText(QRectF(4, 0, width - 8, titleHeight), Qt::AlignVCenter | Qt::AlignLeft,
                          m_title);
        painter->setFont(font);
    }
    double largestDelta = 0;
    if (m_tree->isDiff())
        for (int i = 1; i < int(m_tree->nodes().size()); ++i)
            largestDelta = std::max(largestDelta, std::abs(m_tree->delta(i)));
    const std::vector<Box> boxes = layout(width);
    for (const Box &box : boxes) {
        const auto &node = m_tree->node(box.node);
        const bool matched =
            !m_search.isEmpty() && node.name.contains(m_search, Qt::CaseInsensitive);
        QColor fill = matched            ? QColor(190, 110, 230)
                      : m_tree->isDiff() ? diffColour(m_tree->delta(box.node), largestDelta)
                      : box.node == 0    ? QColor(220, 220, 220)
                                         : frameColour(node.name);
        if (!underZoom(box.node))
            fill = fill.lighter(125); // a caller of the zoomed frame
        painter->fillRect(box.rect, fill);
        if (box.rect.width() > 3 * metrics.averageCharWidth()) {
            painter->setPen(Qt::black);
            const QRectF text = box.rect.adjusted(3, 0, -3, 0);
            painter->drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                              metrics.elidedText(node.name, Qt::ElideRight, text.width()));
        }
    }
    // The status line: what the search matched, or how to read the graph.
    const qreal bottom = top() + (m_tree->maxDepth() + 1) * rowHeight;
    painter->setPen(Qt::darkGray);
    const QString status =
        !m_search.isEmpty() ? QStringLiteral("\"%1\" matched %2 % of the profile")
                                  .arg(m_search)
                                  .arg(100 * m_tree->matchedShare(m_search), 0, 'f', 2)
        : m_tree->isDiff()
            ? QStringLiteral(
                  "width: mean share of both; red grew, blue shrank against the baseline")
            : QStringLiteral("width: share of %1 ms sampled; click a frame to zoom")
                  .arg(m_tree->total() / 1000.0, 0, 'f', 1);
    painter->drawText(QRectF(4, bottom, width - 8, statusHeight), Qt::AlignVCenter | Qt::AlignLeft,
                      status);
    painter->restore();
}

} // namespace servelab::ui
