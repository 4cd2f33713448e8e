// SPDX-License-Identifier: Apache-2.0
#include "pngexportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace servelab::ui {

PngExportDialog::PngExportDialog(QSize shown, QWidget *parent)
    : QDialog(parent), m_width(new QSpinBox), m_height(new QSpinBox), m_scale(new QComboBox),
      m_pixels(new QLabel)
{
    setWindowTitle(tr("Export Chart as PNG"));
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(200, 8000);
        box->setSuffix(tr(" pt"));
    }
    m_width->setValue(shown.width());
    m_height->setValue(shown.height());
    for (int scale : {1, 2, 3, 4})
        m_scale->addItem(tr("%1×").arg(scale), scale);
    m_scale->setCurrentIndex(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Choose File…"));
    auto *form = new QFormLayout(this);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    form->addRow(tr("Scale:"), m_scale);
    form->addRow(tr("Image:"), m_pixels);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QSpinBox *box : {m_width, m_height})
        connect(box, &QSpinBox::valueChanged, this, &PngExportDialog::update);
    connect(m_scale, &QComboBox::currentIndexChanged, this, &PngExportDialog::update);
    update();
}

QSize PngExportDialog::chartSize() const
{
    return {m_width->value(), m_height->value()};
}

qreal PngExportDialog::scale() const
{
    return m_scale->currentData().toReal();
}

void PngExportDialog::update()
{
    const QSize pixels = chartSize() * scale();
    m_pixels->setText(tr("%1 × %2 pixels").arg(pixels.width()).arg(pixels.height()));
}

} // namespace servelab::ui
