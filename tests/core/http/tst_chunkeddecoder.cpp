#include "http/chunkeddecoder.h"

#include <QTest>

#include <string_view>

using servelab::http::ChunkedDecoder;
using Status = ChunkedDecoder::Status;

namespace {

constexpr quint64 defaultMax = 1 << 20;

// Bodies that end. `used` is where the final CRLF ends: anything after it is the next request.
void done(const char *name, const QByteArray &body, int used, quint64 bodyBytes,
          quint64 maxBody = defaultMax)
{
    QTest::newRow(name) << body << maxBody << int(Status::Done) << used << bodyBytes << false;
}

// Bodies cut short: everything given is consumed; bodyBytes counts the chunk sizes seen so far.
void needMore(const char *name, const QByteArray &body, quint64 bodyBytes)
{
    QTest::newRow(name) << body << defaultMax << int(Status::NeedMore) << int(body.size())
                        << bodyBytes << false;
}

// Broken framing. The connection closes then, so neither `used` nor bodyBytes is checked.
void error(const char *name, const QByteArray &body, quint64 maxBody = defaultMax,
           bool tooLarge = false)
{
    QTest::newRow(name) << body << maxBody << int(Status::Error) << -1 << quint64(0) << tooLarge;
}

void tooLarge(const char *name, const QByteArray &body, quint64 maxBody)
{
    error(name, body, maxBody, true);
}

std::string_view view(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), bytes.size());
}

} // namespace

class TestChunkedDecoder : public QObject
{
    Q_OBJECT

private slots:
    void feed_data();
    void feed();
    void byteAtATime_data() { feed_data(); }
    void byteAtATime();
    void splitAnywhere_data() { feed_data(); }
    void splitAnywhere();
    void dataIsHandedOver();
};

void TestChunkedDecoder::feed_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<quint64>("maxBody");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("used");
    QTest::addColumn<quint64>("bodyBytes");
    QTest::addColumn<bool>("tooLarge");

    const QByteArray simple = "5\r\nhello\r\n0\r\n\r\n";
    const QByteArray longLine(8192, 'x');

    // Whole bodies (RFC 9112 §7.1)
    done("simple", simple, 15, 5);
    done("empty body", "0\r\n\r\n", 5, 0);
    done("two chunks", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", 26, 11);
    done("three chunks", "1\r\na\r\n2\r\nbc\r\n3\r\ndef\r\n0\r\n\r\n", 26, 6);
    done("upper-case hex", "A\r\n0123456789\r\n0\r\n\r\n", 20, 10);
    done("lower-case hex", "a\r\n0123456789\r\n0\r\n\r\n", 20, 10);
    done("two hex digits", "1f\r\n" + QByteArray(31, 'z') + "\r\n0\r\n\r\n", 42, 31);
    done("mixed-case hex digits", "1F\r\n" + QByteArray(31, 'z') + "\r\n0\r\n\r\n", 42, 31);
    done("leading zeros", "0005\r\nhello\r\n0\r\n\r\n", 18, 5);
    done("15 hex digits", "000000000000005\r\nhello\r\n0\r\n\r\n", 29, 5);
    done("data holding CRLF and a size line", "5\r\n\r\n0\r\n\r\n0\r\n\r\n", 15, 5);
    done("data holding NUL", QByteArray("3\r\na\0b\r\n0\r\n\r\n", 13), 13, 3);

    // Chunk extensions (RFC 9112 §7.1.1) are skipped.
    done("extension", "5;name=value\r\nhello\r\n0\r\n\r\n", 26, 5);
    done("extension without value", "5;name\r\nhello\r\n0\r\n\r\n", 20, 5);
    done("two extensions", "5;a=1;b=\"x y\"\r\nhello\r\n0\r\n\r\n", 27, 5);
    done("BWS before extension", "5 ;a=1\r\nhello\r\n0\r\n\r\n", 20, 5);
    done("extension on the last chunk", "5\r\nhello\r\n0;end\r\n\r\n", 19, 5);
    done("extension of 8192 bytes", "5;" + longLine + "\r\nhello\r\n0\r\n\r\n", 8208, 5);

    // Trailer section (RFC 9112 §7.1.2) is skipped.
    done("trailer", "0\r\nX-T: 1\r\n\r\n", 13, 0);
    done("trailer after data", "5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n", 23, 5);
    done("two trailers", "0\r\nA: 1\r\nB: 2\r\n\r\n", 17, 0);
    done("trailer of 8192 bytes", "0\r\n" + longLine + "\r\n\r\n", 8199, 0);

    // The end of the body is exact: a pipelined request follows it in the same buffer.
    done("next request follows", simple + "GET / HTTP/1.1\r\nHost: a\r\n\r\n", 15, 5);
    done("next body follows", simple + simple, 15, 5);
    done("junk follows", simple + "\n\n\n", 15, 5);
    done("next request follows trailers", "0\r\nX-T: 1\r\n\r\nGET / HTTP/1.1\r\n\r\n", 13, 0);

    // The body limit counts data bytes, not framing.
    done("body at the limit", simple, 15, 5, 5);
    done("two chunks at the limit", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", 26, 11, 11);
    done("empty body with a zero limit", "0\r\n\r\n", 5, 0, 0);
    tooLarge("body over the limit", simple, 4);
    tooLarge("second chunk over the limit", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", 10);
    tooLarge("one byte with a zero limit", "1\r\na\r\n0\r\n\r\n", 0);
    tooLarge("15 hex digits over the default limit", "fffffffffffffff\r\n", defaultMax);

    // Broken framing
    error("missing CRLF after data", "5\r\nhelloX0\r\n\r\n");
    error("missing LF after data", "5\r\nhello\rX0\r\n\r\n");
    error("data longer than the size", "3\r\nhello\r\n0\r\n\r\n");
    error("bare LF after the size", "5\nhello\n0\n\n");
    error("bare LF after data", "5\r\nhello\n0\r\n\r\n");
    error("bare LF after the last chunk", "0\n\n");
    error("bare LF ending the body", "0\r\n\n");
    error("bare LF after a trailer", "0\r\nX-T: 1\n\r\n");
    error("bare LF in an extension", "5;a\nhello\r\n0\r\n\r\n");
    error("CR without LF after the size", "5\rhello\r\n0\r\n\r\n");
    error("non-hex size", "g\r\nhello\r\n0\r\n\r\n");
    error("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n");
    error("negative size", "-5\r\nhello\r\n0\r\n\r\n");
    error("empty size line", "\r\nhello\r\n0\r\n\r\n");
    error("empty size line after a chunk", "5\r\nhello\r\n\r\n");
    error("space before the size", " 5\r\nhello\r\n0\r\n\r\n");
    error("extension without a size", ";a\r\nhello\r\n0\r\n\r\n");
    error("16 hex digits", "0000000000000005\r\nhello\r\n0\r\n\r\n");
    error("16 hex digits of F", "ffffffffffffffff\r\n");
    error("20 hex digits", "ffffffffffffffffffff\r\n");
    error("NUL in an extension", QByteArray("5;a\0\r\nhello\r\n0\r\n\r\n", 18));
    error("NUL in a trailer", QByteArray("0\r\nX\0\r\n\r\n", 9));
    error("extension over 8192 bytes", "5;" + longLine + "x\r\nhello\r\n0\r\n\r\n");
    error("trailer over 8192 bytes", "0\r\n" + longLine + "x\r\n\r\n");

    // Cut short in every state
    needMore("nothing yet", "", 0);
    needMore("in the size", "5", 0);
    needMore("in a long size", "1f", 0);
    needMore("in an extension", "5;name=va", 0);
    needMore("before LF of the size line", "5\r", 0);
    needMore("before the data", "5\r\n", 5);
    needMore("in the data", "5\r\nhel", 5);
    needMore("before CR after the data", "5\r\nhello", 5);
    needMore("before LF after the data", "5\r\nhello\r", 5);
    needMore("before the next size", "5\r\nhello\r\n", 5);
    needMore("before LF of the last chunk", "5\r\nhello\r\n0\r", 5);
    needMore("before the trailer section", "5\r\nhello\r\n0\r\n", 5);
    needMore("in a trailer", "0\r\nX-T: 1", 0);
    needMore("before LF of a trailer", "0\r\nX-T: 1\r", 0);
    needMore("after a trailer", "0\r\nX-T: 1\r\n", 0);
    needMore("before the final LF", "0\r\n\r", 0);
}

void TestChunkedDecoder::feed()
{
    QFETCH(QByteArray, body);
    QFETCH(quint64, maxBody);
    QFETCH(int, status);
    QFETCH(int, used);
    QFETCH(quint64, bodyBytes);
    QFETCH(bool, tooLarge);

    ChunkedDecoder decoder(maxBody);
    std::size_t consumed = body.size() + 1; // feed must overwrite it
    QCOMPARE(int(decoder.feed(view(body), &consumed)), status);
    QVERIFY(consumed <= std::size_t(body.size()));
    QCOMPARE(decoder.tooLarge(), tooLarge);
    if (status != int(Status::Error)) {
        QCOMPARE(qsizetype(consumed), qsizetype(used));
        QCOMPARE(quint64(decoder.bodyBytes()), bodyBytes);
    }
}

// A body arrives in whatever pieces the socket delivers; the outcome must not depend on them.
void TestChunkedDecoder::byteAtATime()
{
    QFETCH(QByteArray, body);
    QFETCH(quint64, maxBody);

    ChunkedDecoder whole(maxBody);
    std::size_t wholeUsed = 0;
    const Status expected = whole.feed(view(body), &wholeUsed);

    ChunkedDecoder bytewise(maxBody);
    Status status = Status::NeedMore;
    std::size_t total = 0;
    for (qsizetype i = 0; i < body.size() && status == Status::NeedMore; ++i) {
        std::size_t used = 2;
        status = bytewise.feed(view(body).substr(i, 1), &used);
        QVERIFY(used <= 1);
        if (status == Status::NeedMore)
            QCOMPARE(used, std::size_t(1));
        total += used;
    }
    QCOMPARE(int(status), int(expected));
    QCOMPARE(total, wholeUsed);
    QCOMPARE(quint64(bytewise.bodyBytes()), quint64(whole.bodyBytes()));
    QCOMPARE(bytewise.tooLarge(), whole.tooLarge());
}

// Two pieces split at every position, so a data run is also cut in the middle of a chunk.
void TestChunkedDecoder::splitAnywhere()
{
    QFETCH(QByteArray, body);
    QFETCH(quint64, maxBody);

    ChunkedDecoder whole(maxBody);
    std::size_t wholeUsed = 0;
    const Status expected = whole.feed(view(body), &wholeUsed);

    for (qsizetype at = 0; at <= body.size(); ++at) {
        ChunkedDecoder split(maxBody);
        std::size_t firstUsed = 0;
        Status status = split.feed(view(body).substr(0, at), &firstUsed);
        std::size_t total = firstUsed;
        if (status == Status::NeedMore) {
            QCOMPARE(firstUsed, std::size_t(at));
            std::size_t secondUsed = 0;
            status = split.feed(view(body).substr(at), &secondUsed);
            total += secondUsed;
        }
        QVERIFY2(status == expected && total == wholeUsed,
                 qPrintable(QStringLiteral("split at %1").arg(at)));
        QCOMPARE(quint64(split.bodyBytes()), quint64(whole.bodyBytes()));
        QCOMPARE(split.tooLarge(), whole.tooLarge());
    }
}

// The load client looks at response bodies: with a data pointer the decoder hands over each run
// of chunk data, however the bytes arrive, and nothing of the framing.
void TestChunkedDecoder::dataIsHandedOver()
{
    const QByteArray body("4\r\nWiki\r\n6;name=value\r\npedia \r\nE\r\nin \r\n\r\nchunks."
                          "\r\n0\r\nTrailer: x\r\n\r\nNEXT");
    const QByteArray decoded("Wikipedia in \r\n\r\nchunks.");
    for (qsizetype step = 1; step <= body.size(); ++step) {
        ChunkedDecoder decoder(defaultMax);
        QByteArray data;
        Status status = Status::NeedMore;
        qsizetype at = 0;
        while (status == Status::NeedMore && at < body.size()) {
            std::string_view in = view(body).substr(at, step);
            while (!in.empty()) {
                std::size_t used = 0;
                std::string_view piece;
                status = decoder.feed(in, &used, &piece);
                data.append(piece.data(), qsizetype(piece.size()));
                in.remove_prefix(used);
                at += qsizetype(used);
                if (status != Status::NeedMore)
                    break;
            }
        }
        QVERIFY2(status == Status::Done, qPrintable(QStringLiteral("step %1").arg(step)));
        QCOMPARE(data, decoded);
        QCOMPARE(body.mid(at), QByteArray("NEXT")); // the next message's bytes are left alone
    }
}

QTEST_GUILESS_MAIN(TestChunkedDecoder)
#include "tst_chunkeddecoder.moc"
