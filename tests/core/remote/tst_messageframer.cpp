// SPDX-License-Identifier: Apache-2.0
#include "remote/agentprotocol.h"
#include "remote/messageframer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using servelab::remote::MessageFramer;

class TestMessageFramer : public QObject
{
    Q_OBJECT

private slots:
    void wholeMessagesFromAnyPieces()
    {
        const QByteArray first = servelab::remote::requestMessage(1, "hello", {{"protocol", 1}});
        const QByteArray second = QByteArray(70000, 'x'); // longer than one read
        const QByteArray stream = MessageFramer::frame(first) + MessageFramer::frame(second);
        for (qsizetype piece : {qsizetype(1), qsizetype(7), qsizetype(4096), stream.size()}) {
            MessageFramer framer;
            QList<QByteArray> got;
            for (qsizetype at = 0; at < stream.size(); at += piece) {
                framer.feed(stream.constData() + at, std::min(piece, stream.size() - at));
                while (auto message = framer.next())
                    got << *message;
            }
            QVERIFY2(framer.error().isEmpty(), qPrintable(framer.error()));
            QCOMPARE(got.size(), 2);
            QCOMPARE(got[0], first);
            QCOMPARE(got[1], second);
            QCOMPARE(framer.buffered(), 0);
        }
    }

    void headerFieldsAsLspWritesThem()
    {
        MessageFramer framer;
        const QByteArray text = "content-length:  2\r\nContent-Type: application/json\r\n\r\n{}";
        framer.feed(text.constData(), text.size());
        QCOMPARE(framer.next().value_or("none"), QByteArray("{}"));
    }

    void refusesWhatIsNotAFrame_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no length")
            << QByteArray("HTTP/1.1 200 OK\r\n\r\n") << "without Content-Length";
        QTest::newRow("bad length")
            << QByteArray("Content-Length: ten\r\n\r\n") << "bad Content-Length";
        QTest::newRow("negative") << QByteArray("Content-Length: -1\r\n\r\n")
                                  << "bad Content-Length";
        QTest::newRow("too big") << QByteArray("Content-Length: 99999999999\r\n\r\n")
                                 << "over the limit";
        QTest::newRow("endless header") << QByteArray(2000, 'a') << "longer than";
    }
    void refusesWhatIsNotAFrame()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        MessageFramer framer;
        framer.feed(text.constData(), text.size());
        QVERIFY(!framer.next());
        QVERIFY2(framer.error().contains(error), qPrintable(framer.error()));
        // Stopped for good: later bytes are not read as messages.
        const QByteArray good = MessageFramer::frame("{}");
        framer.feed(good.constData(), good.size());
        QVERIFY(!framer.next());
    }

    void messagesAreJsonRpc()
    {
        const auto request =
            QJsonDocument::fromJson(servelab::remote::requestMessage(7, "clock", {})).object();
        QCOMPARE(request.value("jsonrpc").toString(), QStringLiteral("2.0"));
        QCOMPARE(request.value("id").toInt(), 7);
        QCOMPARE(request.value("method").toString(), QStringLiteral("clock"));
        const auto error =
            QJsonDocument::fromJson(servelab::remote::errorMessage(7, -32601, "no")).object();
        QCOMPARE(error.value("error").toObject().value("code").toInt(), -32601);
        QCOMPARE(error.value("id").toInt(), 7);
    }
};

QTEST_APPLESS_MAIN(TestMessageFramer)
#include "tst_messageframer.moc"
