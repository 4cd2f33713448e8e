// SPDX-License-Identifier: Apache-2.0
#include "jsonhighlighter.h"
#include "servelab_config.h"

#include <QAbstractTextDocumentLayout>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace servelab;

class TestJsonHighlighter : public QObject
{
    Q_OBJECT
private:
    static QList<QTextLayout::FormatRange> formatsOf(QTextDocument &document)
    {
        return document.firstBlock().layout()->formats();
    }

private Q_SLOTS:
    void builtInHighlighterMarksKeysStringsNumbers()
    {
        QTextDocument document;
        document.documentLayout(); // as in a view: without a layout, no contentsChange is emitted
        new ui::JsonHighlighter(&document);
        document.setPlainText(
            QStringLiteral(R"({"servelab": 1, "mode": "epoll+sendfile", "k": true})"));
        QTRY_VERIFY(!formatsOf(document).isEmpty());
        const auto formats = formatsOf(document);
        auto colourAt = [&](int position) {
            for (const auto &range : formats)
                if (position >= range.start && position < range.start + range.length)
                    return range.format.foreground().color();
            return QColor();
        };
        const QColor key = colourAt(1);
        const QColor number = colourAt(13);
        const QColor string = colourAt(25);
        const QColor literal = colourAt(50);
        QVERIFY(key.isValid() && number.isValid() && string.isValid() && literal.isValid());
        QVERIFY(key != string && string != number && number != literal);
        QCOMPARE(colourAt(0), QColor()); // the brace is plain
    }

    void bestAvailableHighlighter()
    {
        QTextDocument document;
        document.documentLayout(); // as in a view: without a layout, no contentsChange is emitted
        const QString name = ui::attachJsonHighlighter(&document);
        document.setPlainText(QStringLiteral(R"({"a": 1})"));
        QTRY_VERIFY(!formatsOf(document).isEmpty());
#if HAVE_KSYNTAXHIGHLIGHTING
        QCOMPARE(name, QStringLiteral("KSyntaxHighlighting"));
#else
        QCOMPARE(name, QStringLiteral("built-in"));
#endif
    }

    void kdeEngineWhenBuiltWithIt()
    {
#if !HAVE_KSYNTAXHIGHLIGHTING
        QSKIP("built without KF6 SyntaxHighlighting (Debian 12); the Debian 13 leg runs this");
#else
        QTextDocument document;
        document.documentLayout(); // as in a view: without a layout, no contentsChange is emitted
        QCOMPARE(ui::attachJsonHighlighter(&document), QStringLiteral("KSyntaxHighlighting"));
        document.setPlainText(QStringLiteral(R"({"servelab": 1, "x": "y"})"));
        QTRY_VERIFY(formatsOf(document).size() >= 3);
#endif
    }
};

QTEST_MAIN(TestJsonHighlighter)
#include "tst_jsonhighlighter.moc"
