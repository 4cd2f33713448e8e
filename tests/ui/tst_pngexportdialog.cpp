// SPDX-License-Identifier: Apache-2.0
#include "pngexportdialog.h"

#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QTest>

using namespace servelab;

class TestPngExportDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // As shown, at 2×, by default; the pixels follow what is typed.
    void sizeAndScale()
    {
        ui::PngExportDialog dialog(QSize(900, 500));
        QCOMPARE(dialog.chartSize(), QSize(900, 500));
        QCOMPARE(dialog.scale(), 2.0);
        const auto boxes = dialog.findChildren<QSpinBox *>();
        QCOMPARE(boxes.size(), 2);
        boxes[0]->setValue(1000);
        auto *scale = dialog.findChild<QComboBox *>();
        scale->setCurrentIndex(2); // 3×
        QCOMPARE(dialog.chartSize(), QSize(1000, 500));
        QCOMPARE(dialog.scale(), 3.0);
        bool shown = false;
        for (auto *label : dialog.findChildren<QLabel *>())
            shown = shown || label->text() == QStringLiteral("3000 × 1500 pixels");
        QVERIFY(shown);
        boxes[1]->setValue(10); // below the smallest size a chart is readable at
        QCOMPARE(dialog.chartSize().height(), 200);
    }
};

QTEST_MAIN(TestPngExportDialog)
#include "tst_pngexportdialog.moc"
