// SPDX-License-Identifier: Apache-2.0
#include "http/chunkeddecoder.h"
#include "../../support/chunkedreference.h"

#include <QRandomGenerator>
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
    void trailerSectionLimit();
    void agreesWithTheReference_data() { feed_data(); }
    void agreesWithTheReference();
    void mutationsAgreeWithTheReference();
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
    // 1*HEXDIG: leading zeros are digits like any other; only significant ones can overflow.
    done("16 hex digits with leading zeros", "0000000000000005\r\nhello\r\n0\r\n\r\n", 30, 5);
    done("last chunk of several zeros", "000\r\n\r\n", 7, 0);
    done("data holding CRLF and a size line", "5\r\n\r\n0\r\n\r\n0\r\n\r\n", 15, 5);
    done("data holding NUL", QByteArray("3\r\na\0b\r\n0\r\n\r\n", 13), 13, 3);

    // Chunk extensions (RFC 9112 §7.1.1) are checked against their grammar, then skipped.
    done("extension", "5;name=value\r\nhello\r\n0\r\n\r\n", 26, 5);
    done("extension without value", "5;name\r\nhello\r\n0\r\n\r\n", 20, 5);
    done("two extensions", "5;a=1;b=\"x y\"\r\nhello\r\n0\r\n\r\n", 27, 5);
    done("BWS before extension", "5 ;a=1\r\nhello\r\n0\r\n\r\n", 20, 5);
    done("BWS everywhere BWS may be", "5 \t; a \t= \t1 ;b\r\nhello\r\n0\r\n\r\n", 29, 5);
    done("BWS after a quoted value", "5;a=\"x\" ;b\r\nhello\r\n0\r\n\r\n", 24, 5);
    done("quoted value with quoted-pairs", "5;a=\"x\\\"y\\\\\"\r\nhello\r\n0\r\n\r\n", 26, 5);
    done("quoted value, empty", "5;a=\"\"\r\nhello\r\n0\r\n\r\n", 20, 5);
    done("quoted value with obs-text", "5;a=\"caf\xe9\"\r\nhello\r\n0\r\n\r\n", 24, 5);
    done("token value of tchars", "5;a=!#$%&'*+-.^_`|~\r\nhello\r\n0\r\n\r\n", 33, 5);
    done("extension on the last chunk", "5\r\nhello\r\n0;end\r\n\r\n", 19, 5);
    done("size line of 8192 bytes", "5;" + QByteArray(8190, 'x') + "\r\nhello\r\n0\r\n\r\n",
         8206, 5);

    // Trailer section (RFC 9112 §7.1.2): field lines, checked, then skipped.
    done("trailer", "0\r\nX-T: 1\r\n\r\n", 13, 0);
    done("trailer after data", "5\r\nhello\r\n0\r\nX-T: 1\r\n\r\n", 23, 5);
    done("two trailers", "0\r\nA: 1\r\nB: 2\r\n\r\n", 17, 0);
    done("trailer with an empty value", "0\r\nA:\r\n\r\n", 9, 0);
    done("trailer with OWS and obs-text", "0\r\nA: \t1\xff \t\r\n\r\n", 15, 0);
    done("trailer line of 8192 bytes", "0\r\nX: " + QByteArray(8189, 'x') + "\r\n\r\n", 8199, 0);

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
    error("hex then a letter", "5g\r\nhello\r\n0\r\n\r\n");
    error("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n");
    error("negative size", "-5\r\nhello\r\n0\r\n\r\n");
    error("plus sign", "+5\r\nhello\r\n0\r\n\r\n");
    error("empty size line", "\r\nhello\r\n0\r\n\r\n");
    error("empty size line after a chunk", "5\r\nhello\r\n\r\n");
    error("space before the size", " 5\r\nhello\r\n0\r\n\r\n");
    error("whitespace after the size", "5 \r\nhello\r\n0\r\n\r\n");
    error("tab after the last chunk", "0\t\r\n\r\n");
    error("extension without a size", ";a\r\nhello\r\n0\r\n\r\n");
    error("16 significant hex digits", "1000000000000005\r\nhello\r\n0\r\n\r\n");
    error("16 hex digits of F", "ffffffffffffffff\r\n");
    error("20 hex digits", "ffffffffffffffffffff\r\n");
    error("extension without a name", "5;\r\nhello\r\n0\r\n\r\n");
    error("extension of only BWS", "5; \r\nhello\r\n0\r\n\r\n");
    error("extension name not a token", "5;a(b\r\nhello\r\n0\r\n\r\n");
    error("extension name after a space", "5;a b\r\nhello\r\n0\r\n\r\n");
    error("BWS then the end of the line", "5;a \r\nhello\r\n0\r\n\r\n");
    error("empty extension value", "5;a=\r\nhello\r\n0\r\n\r\n");
    error("two equals signs", "5;a==1\r\nhello\r\n0\r\n\r\n");
    error("value not a token", "5;a=b(c\r\nhello\r\n0\r\n\r\n");
    error("value then a word", "5;a=1 b\r\nhello\r\n0\r\n\r\n");
    error("value then BWS then the end", "5;a=1 \r\nhello\r\n0\r\n\r\n");
    error("token then a quote", "5;a=1\"x\"\r\nhello\r\n0\r\n\r\n");
    error("quoted value then a token", "5;a=\"x\"y\r\nhello\r\n0\r\n\r\n");
    error("unterminated quoted value", "5;a=\"x\r\nhello\r\n0\r\n\r\n");
    error("control in a quoted value", "5;a=\"x\x01\"\r\nhello\r\n0\r\n\r\n");
    error("DEL in a quoted value", "5;a=\"x\x7f\"\r\nhello\r\n0\r\n\r\n");
    error("quoted-pair of a control", "5;a=\"\\\x01\"\r\nhello\r\n0\r\n\r\n");
    error("DEL in a token value", "5;a=x\x7f\r\nhello\r\n0\r\n\r\n");
    error("NUL in an extension", QByteArray("5;a\0\r\nhello\r\n0\r\n\r\n", 18));
    error("size line over 8192 bytes", "5;" + QByteArray(8191, 'x') + "\r\nhello\r\n0\r\n\r\n");
    error("zeros over 8192 bytes", QByteArray(8192, '0') + "5\r\nhello\r\n0\r\n\r\n");
    error("trailer without a colon", "0\r\nX-T\r\n\r\n");
    error("trailer of a bare word", "0\r\n" + longLine + "\r\n\r\n");
    error("trailer with an empty name", "0\r\n: 1\r\n\r\n");
    error("trailer with a space before the colon", "0\r\nX-T : 1\r\n\r\n");
    error("trailer name not a token", "0\r\nX(T): 1\r\n\r\n");
    error("trailer folded (obs-fold)", "0\r\nX-T: 1\r\n 2\r\n\r\n");
    error("trailer starting with whitespace", "0\r\n X-T: 1\r\n\r\n");
    error("control in a trailer value", "0\r\nX-T: a\x01" "b\r\n\r\n");
    error("DEL in a trailer value", "0\r\nX-T: a\x7f" "b\r\n\r\n");
    error("bare CR in a trailer value", "0\r\nX-T: a\rb\r\n\r\n");
    error("NUL in a trailer", QByteArray("0\r\nX\0\r\n\r\n", 9));
    error("trailer line over 8192 bytes", "0\r\nX: " + QByteArray(8190, 'x') + "\r\n\r\n");
    error("bare CR ending the body", "0\r\n\rX");

    // Cut short in every state
    needMore("nothing yet", "", 0);
    needMore("in the size", "5", 0);
    needMore("in a long size", "1f", 0);
    needMore("in an extension", "5;name=va", 0);
    needMore("after the semicolon", "5;", 0);
    needMore("in BWS after the size", "5 ", 0);
    needMore("in BWS after a name", "5;a ", 0);
    needMore("in BWS after the equals sign", "5;a= ", 0);
    needMore("in a quoted value", "5;a=\"x", 0);
    needMore("after a backslash", "5;a=\"\\", 0);
    needMore("after a quoted value", "5;a=\"x\"", 0);
    needMore("before LF of the size line", "5\r", 0);
    needMore("before the data", "5\r\n", 5);
    needMore("in the data", "5\r\nhel", 5);
    needMore("before CR after the data", "5\r\nhello", 5);
    needMore("before LF after the data", "5\r\nhello\r", 5);
    needMore("before the next size", "5\r\nhello\r\n", 5);
    needMore("before LF of the last chunk", "5\r\nhello\r\n0\r", 5);
    needMore("before the trailer section", "5\r\nhello\r\n0\r\n", 5);
    needMore("in a trailer name", "0\r\nX-T", 0);
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

    // Long rows (the 8 KiB lines) are split at every 61st byte and near both ends: every
    // state is still cut, in far less time than 8,192 × 8,192 steps under the sanitizers.
    const qsizetype stride = body.size() > 1024 ? 61 : 1;
    for (qsizetype at = 0; at <= body.size(); at += (at < 64 || at > body.size() - 64) ? 1 : stride) {
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

// The whole trailer section is bounded like a head (64 KiB), whatever its lines.
void TestChunkedDecoder::trailerSectionLimit()
{
    QByteArray section;
    const QByteArray line = "X-Trailer: " + QByteArray(1000, 'v') + "\r\n";
    while (section.size() + line.size() < 64 * 1024 - 100)
        section += line;
    for (const bool over : {false, true}) {
        QByteArray body = "0\r\n" + section;
        const int room = 64 * 1024 - int(section.size()) - 2; // the final CRLF counts
        body += "Y: " + QByteArray(room - 5 + (over ? 1 : 0), 'w') + "\r\n\r\n";
        ChunkedDecoder decoder(defaultMax);
        std::size_t used = 0;
        QCOMPARE(int(decoder.feed(view(body), &used)), int(over ? Status::Error : Status::Done));
        const auto reference = chunkedreference::parse(view(body), defaultMax);
        QCOMPARE(int(reference.verdict), int(over ? chunkedreference::Verdict::Error
                                                    : chunkedreference::Verdict::Done));
    }
}

namespace {

// Feeds `body` in pieces of random sizes and compares the outcome with the reference's.
void compareWithReference(const QByteArray &body, quint64 maxBody, QRandomGenerator &random)
{
    const auto expected = chunkedreference::parse(view(body), maxBody);
    ChunkedDecoder decoder(maxBody);
    Status status = Status::NeedMore;
    std::size_t total = 0;
    while (status == Status::NeedMore && total < std::size_t(body.size())) {
        const auto piece = std::min<std::size_t>(body.size() - total, 1 + random.bounded(8));
        std::size_t used = 0;
        status = decoder.feed(view(body).substr(total, piece), &used);
        total += used;
    }
    const auto show = [&] { return QString::fromLatin1(body.toPercentEncoding()); };
    QVERIFY2(int(status) == int(expected.verdict),
             qPrintable(QStringLiteral("verdict %1, reference %2 for %3")
                            .arg(int(status))
                            .arg(int(expected.verdict))
                            .arg(show())));
    QVERIFY2(decoder.tooLarge() == expected.tooLarge, qPrintable(show()));
    if (status == Status::Done) {
        QVERIFY2(total == expected.used, qPrintable(show()));
        QVERIFY2(decoder.bodyBytes() == expected.bodyBytes, qPrintable(show()));
    }
}

} // namespace

// Differential: the state machine and the recursive-descent reference of the same grammar
// (tests/support/chunkedreference.h) agree on every row of the table...
void TestChunkedDecoder::agreesWithTheReference()
{
    QFETCH(QByteArray, body);
    QFETCH(quint64, maxBody);
    QRandomGenerator random(7);
    compareWithReference(body, maxBody, random);
}

// ...and on a bounded number of random mutations of small valid bodies, from a fixed seed so a
// failure repeats. tests/fuzz/fuzz_chunkeddecoder.cpp does the same without a bound.
void TestChunkedDecoder::mutationsAgreeWithTheReference()
{
    const QByteArray seeds[] = {
        "5\r\nhello\r\n0\r\n\r\n",
        "5;a=1;b=\"x\\\"y\"\r\nhello\r\n0\r\nT: v\r\n\r\n",
        "1 ; a = b\r\nx\r\n00;z\r\nA:\r\nB: c d\r\n\r\n",
        "a\r\n0123456789\r\n0\r\n\r\n",
    };
    // Bytes where the grammar has its edges: delimiters, whitespace, quotes, controls, hex.
    const char alphabet[] = " \t\r\n;=\":\\\"(),0159aAfFgG\x00\x01\x7f\x80\xff";
    QRandomGenerator random(20261201);
    int cases = 0;
    for (int round = 0; round < 200000; ++round) {
        QByteArray body = seeds[random.bounded(int(std::size(seeds)))];
        const int mutations = 1 + random.bounded(3);
        for (int m = 0; m < mutations; ++m) {
            const int at = random.bounded(int(body.size()) + 1);
            const char c = alphabet[random.bounded(int(sizeof alphabet - 1))];
            switch (random.bounded(3)) {
            case 0: body.insert(at, c); break;
            case 1:
                if (at < body.size())
                    body.remove(at, 1);
                break;
            default:
                if (at < body.size())
                    body[at] = c;
                break;
            }
        }
        compareWithReference(body, random.bounded(2) ? defaultMax : 4, random);
        if (QTest::currentTestFailed())
            return;
        ++cases;
    }
    QCOMPARE(cases, 200000);
}

QTEST_GUILESS_MAIN(TestChunkedDecoder)
#include "tst_chunkeddecoder.moc"
