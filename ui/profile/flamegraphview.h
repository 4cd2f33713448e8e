// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "flamegraphpainter.h"
#include "profile/flametree.h"

#include <QWidget>

namespace servelab::ui {

// A flame graph on screen: click a frame to zoom to it, click the bottom row (or Escape) to
// zoom out, hover for a frame's share; the search colours matching frames and says their
// share. Writes itself as PNG or SVG (by the path's suffix), atomically.
class FlameGraphView : public QWidget
{
    Q_OBJECT
public:
    explicit FlameGraphView(QWidget *parent = nullptr);

    void setTree(profile::FlameTree tree, const QString &title);
    const profile::FlameTree &tree() const { return m_tree; }
    void setSearch(const QString &text);
    void zoomTo(int node);
    int zoom() const { return m_painter.zoom(); }
    // What the status line says of the search: the share matched, 0..1.
    double matchedShare() const;
    // PNG (at twice the width for a sharp print) or SVG, by suffix; *error says why not.
    bool write(const QString &path, QString *error, int width = 1400) const;

    QSize sizeHint() const override;

Q_SIGNALS:
    void zoomed(int node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

private:
    profile::FlameTree m_tree;
    FlameGraphPainter m_painter{&m_tree};
    QString m_search;
};

} // namespace servelab::ui
