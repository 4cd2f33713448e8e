// SPDX-License-Identifier: Apache-2.0
#include "flamegraphview.h"

#include <QDomDocument>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

profile::FoldedStacks sample()
{
    profile::FoldedStacks stacks;
    stacks.add(QStringLiteral("start_thread;PoolWorker::run;CopyTransfer::write;__libc_pread"),
               6000);
    stacks.add(QStringLiteral("start_thread;PoolWorker::run;Connection::onReadable"), 3000);
    stacks.add(QStringLiteral("start_thread;Watcher::run;epoll_wait"), 1000);
    return stacks;
}

} // namespace

class TestFlameGraphView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void clickZoomsAndSearchMeasures()
    {
        ui::FlameGraphView view;
        view.resize(1000, 200);
        view.setTree(profile::FlameTree::of(sample()), QStringLiteral("test"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.height() >= 5 * int(ui::FlameGraphPainter::rowHeight));
        QSignalSpy zoomed(&view, &ui::FlameGraphView::zoomed);
        // PoolWorker::run: 90 % of the width, two rows above the root ("all" at the bottom).
        const int worker = view.tree().find(QStringLiteral("PoolWorker::run"));
        ui::FlameGraphPainter painter(&view.tree());
        painter.setTitle(QStringLiteral("test"));
        QRectF box;
        for (const auto &b : painter.layout(view.width()))
            if (b.node == worker)
                box = b.rect;
        QVERIFY(qAbs(box.width() - 900) < 1);
        QTest::mouseClick(&view, Qt::LeftButton, {}, box.center().toPoint());
        QCOMPARE(zoomed.size(), 1);
        QCOMPARE(view.zoom(), worker);
        // Zoomed, it fills the width; what is not under it is not drawn.
        painter.setZoom(worker);
        const auto boxes = painter.layout(view.width());
        for (const auto &b : boxes)
            if (b.node == worker)
                QVERIFY(qAbs(b.rect.width() - 1000) < 1);
        QVERIFY(std::none_of(boxes.cbegin(), boxes.cend(), [&](const auto &b) {
            return b.node == view.tree().find(QStringLiteral("Watcher::run"));
        }));
        QTest::keyClick(&view, Qt::Key_Escape);
        QCOMPARE(view.zoom(), 0);

        view.setSearch(QStringLiteral("pread"));
        QCOMPARE(view.matchedShare(), 0.6);
        view.setSearch(QStringLiteral("run"));
        QCOMPARE(view.matchedShare(), 1.0);
    }

    void writesSvgAndPng()
    {
        QTemporaryDir dir;
        ui::FlameGraphView view;
        QString error;
        QVERIFY(!view.write(dir.filePath(QStringLiteral("empty.svg")), &error));
        QVERIFY(error.contains(QStringLiteral("no profile")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("empty.svg"))));

        view.setTree(profile::FlameTree::of(sample()), QStringLiteral("epoll+copy at 1M, on-CPU"));
        const QString svg = dir.filePath(QStringLiteral("f.svg"));
        QVERIFY2(view.write(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QDomDocument doc;
        QVERIFY(doc.setContent(&file));
        const QString text = doc.documentElement().text();
        QVERIFY(text.contains(QStringLiteral("PoolWorker::run")));
        QVERIFY(text.contains(QStringLiteral("epoll+copy at 1M")));

        const QString png = dir.filePath(QStringLiteral("f.png"));
        QVERIFY2(view.write(png, &error, 800), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.width(), 1600); // twice the width asked for
        QVERIFY(image.height() > 2 * 5 * int(ui::FlameGraphPainter::rowHeight));

        QVERIFY(!view.write(dir.filePath(QStringLiteral("no/such/dir/f.png")), &error));
        QVERIFY(error.contains(QStringLiteral("no/such/dir/f.png")));
    }

    void aDiffIsDrawnAndExported()
    {
        profile::FoldedStacks before = sample();
        profile::FoldedStacks after;
        after.add(QStringLiteral("start_thread;PoolWorker::run;SendfileTransfer::write"), 2000);
        after.add(QStringLiteral("start_thread;Watcher::run;epoll_wait"), 2000);
        ui::FlameGraphView view;
        view.setTree(profile::FlameTree::diff(before, after), QStringLiteral("diff"));
        QVERIFY(view.tree().isDiff());
        QVERIFY(view.tree().delta(view.tree().find(QStringLiteral("CopyTransfer::write"))) < 0);
        QVERIFY(view.tree().delta(view.tree().find(QStringLiteral("epoll_wait"))) > 0);
        QTemporaryDir dir;
        QString error;
        QVERIFY2(view.write(dir.filePath(QStringLiteral("d.png")), &error), qPrintable(error));
        // Grown frames are red, shrunk blue: both colours are in the picture.
        const QImage image(dir.filePath(QStringLiteral("d.png")));
        bool red = false;
        bool blue = false;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4) {
                const QColor c = image.pixelColor(x, y);
                red = red || (c.red() == 255 && c.blue() < 120);
                blue = blue || (c.blue() == 255 && c.red() < 120);
            }
        QVERIFY(red);
        QVERIFY(blue);
    }
};

QTEST_MAIN(TestFlameGraphView)
#include "tst_flamegraphview.moc"
