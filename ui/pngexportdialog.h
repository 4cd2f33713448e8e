// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QSize>

class QComboBox;
class QLabel;
class QSpinBox;

namespace servelab::ui {

// What a chart's PNG is to be: its size in points (as the chart is laid out: titles and labels
// keep their size, the plot takes the rest) and the scale (pixels per point; 2× by default,
// sharp on High-DPI screens and in print). Shows the resulting pixels as they change.
class PngExportDialog : public QDialog
{
    Q_OBJECT
public:
    PngExportDialog(QSize shown, QWidget *parent = nullptr);

    QSize chartSize() const;
    qreal scale() const;

private:
    void update();

    QSpinBox *m_width;
    QSpinBox *m_height;
    QComboBox *m_scale;
    QLabel *m_pixels;
};

} // namespace servelab::ui
