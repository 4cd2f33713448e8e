// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "profile/flametree.h"

#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace servelab::ui {

// Lays out and draws a FlameTree as a flame graph: the root at the bottom, each frame on its
// caller, as wide as its share. Zoomed to a frame, that frame fills the width, its callers
// below it stay full width (paler), and what is not under it is not drawn. Frames matching the
// search are drawn in one colour. One painter for the widget, PNG and SVG alike.
class FlameGraphPainter
{
public:
    static constexpr qreal rowHeight = 18;

    struct Box
    {
        int node = 0;
        QRectF rect;
    };

    explicit FlameGraphPainter(const profile::FlameTree *tree) : m_tree(tree) {}
    void setZoom(int node) { m_zoom = node; }
    int zoom() const { return m_zoom; }
    void setSearch(const QString &text) { m_search = text; }
    void setTitle(const QString &title) { m_title = title; }

    // Height the graph needs at its deepest (title and the status line included).
    qreal heightFor() const;
    // Boxes of the frames drawn at `width`, frames narrower than a pixel left out.
    std::vector<Box> layout(qreal width) const;
    void paint(QPainter *painter, const QRectF &area) const;
    // The frame at `pos`, -1 for none.
    int nodeAt(const QPointF &pos, qreal width) const;
    // "fn — 12.3 % (4.5 ms)" and in a diff "+2.1 points".
    QString describe(int node) const;

private:
    qreal top() const;
    bool underZoom(int node) const;

    const profile::FlameTree *m_tree;
    int m_zoom = 0;
    QString m_search;
    QString m_title;
};

} // namespace servelab::ui
