// SPDX-License-Identifier: Apache-2.0
#include "loghighlighter.h"
#include "servelab_config.h"

#include <QAbstractTextDocumentLayout>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace servelab;

namespace {

const QString sample = QStringLiteral(
    "run: seed 000\n"
    "[1/6] epoll+sendfile, 4K, repetition 1: DNF, every request failed: 5xx status\n"
    "[2/6] epoll+sendfile, 1M, repetition 1: 827439.88 KiB/s; the server met EMFILE 12 times\n"
    "Done: 6 points in 19 s.");

// The colour at `position` of line `line` (invalid where nothing is marked).
QColor colourAt(QTextDocument &document, int line, int position)
{
    for (const auto &range : document.findBlockByNumber(line).layout()->formats())
        if (position >= range.start && position < range.start + range.length)
            return range.format.foreground().color();
    return {};
}

} // namespace

class TestLogHighlighter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The point's number, DNF and its reason, figures and warnings each stand out.
    void builtInMarksWhatMatters()
    {
        for (const bool dark : {false, true}) {
            QTextDocument document;
            document.documentLayout(); // as in a view
            new ui::LogHighlighter(&document, dark);
            document.setPlainText(sample);
            QTRY_VERIFY(!document.findBlockByNumber(1).layout()->formats().isEmpty());
            const QColor progress = colourAt(document, 1, 1);
            const QColor dnf = colourAt(document, 1, 42);
            const QColor reason = colourAt(document, 1, 60);
            const QColor figure = colourAt(document, 2, 42);
            const QColor emfile = colourAt(document, 2, 75);
            QVERIFY(progress.isValid() && dnf.isValid() && figure.isValid() && emfile.isValid());
            QCOMPARE(reason, dnf); // the reason is part of the failure
            QVERIFY(dnf != figure && figure != emfile && progress != dnf);
            QCOMPARE(colourAt(document, 1, 10), QColor()); // the target is plain text
            QVERIFY(colourAt(document, 0, 0).isValid());   // "run:"
            // Dark palettes get lighter colours.
            QCOMPARE(dnf.lightness() > 128, dark);
        }
    }

    void bestAvailableHighlighter()
    {
        QTextDocument document;
        document.documentLayout();
        const QString name = ui::attachLogHighlighter(&document);
        document.setPlainText(sample);
        QTRY_VERIFY(!document.findBlockByNumber(1).layout()->formats().isEmpty());
#if HAVE_KSYNTAXHIGHLIGHTING
        // ServeLab's own definition, found in the resources by KDE's engine.
        QCOMPARE(name, QStringLiteral("KSyntaxHighlighting"));
        QVERIFY(colourAt(document, 1, 42) != colourAt(document, 1, 10));
#else
        QCOMPARE(name, QStringLiteral("built-in"));
#endif
    }
};

QTEST_MAIN(TestLogHighlighter)
#include "tst_loghighlighter.moc"
