// SPDX-License-Identifier: Apache-2.0
#include "client/responseparser.h"

#include <QTest>

#include <string_view>

using servelab::client::ResponseParser;
using Status = ResponseParser::Status;

Q_DECLARE_METATYPE(servelab::client::ResponseParser::Status)

namespace {

constexpr qlonglong noLength = -1;

QByteArray nameOf(Status status)
{
    switch (status) {
    case Status::NeedMore: return "NeedMore";
    case Status::Done: return "Done";
    case Status::Error: return "Error";
    }
    return "?";
}

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

// A complete response head; `body` follows it and is not part of headLength.
void done(const char *name, const QByteArray &head, int status, bool keepAlive,
          qlonglong contentLength, bool chunked, bool bodyless, const QByteArray &body = {})
{
    QTest::newRow(name) << head + body << Status::Done << status << keepAlive << contentLength
                        << chunked << bodyless << int(head.size());
}

void error(const char *name, const QByteArray &raw)
{
    QTest::newRow(name) << raw << Status::Error << 0 << false << noLength << false << false << 0;
}

void needMore(const char *name, const QByteArray &raw)
{
    QTest::newRow(name) << raw << Status::NeedMore << 0 << false << noLength << false << false << 0;
}

} // namespace

class TestResponseParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void parseByteByByte_data() { parse_data(); }
    void parseByteByByte();
    void resetForgetsThePreviousResponse();
};

void TestResponseParser::parse_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<Status>("outcome");
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("keepAlive");
    QTest::addColumn<qlonglong>("contentLength"); // -1: no Content-Length
    QTest::addColumn<bool>("chunked");
    QTest::addColumn<bool>("bodyless");
    QTest::addColumn<int>("headLength");

    const QByteArray nul(1, '\0');

    // Status line and Content-Length
    done("200 with Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", 200, true, 5,
         false, false);
    done("200 with its body", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", 200, true, 5, false,
         false, "hello");
    done("body holding CRLFCRLF", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n", 200, true, 4,
         false, false, "\r\n\r\n");
    done("Content-Length 0", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 200, true, 0, false,
         false);
    done("no fields", "HTTP/1.1 200 OK\r\n\r\n", 200, true, noLength, false, false);
    done("no reason phrase", "HTTP/1.1 200\r\nContent-Length: 1\r\n\r\n", 200, true, 1, false,
         false);
    done("empty reason phrase", "HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\n", 200, true, 1, false,
         false);
    done("404 with a long reason", "HTTP/1.1 404 Not Found Here\r\nContent-Length: 9\r\n\r\n", 404,
         true, 9, false, false);
    done("500", "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 3\r\n\r\n", 500, true, 3,
         false, false);
    done("equal Content-Length list", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n", 200, true,
         5, false, false);
    done("two equal Content-Length",
         "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n", 200, true, 5, false,
         false);
    done("other fields", "HTTP/1.1 200 OK\r\nServer: x\r\nDate: y\r\nContent-Length: 2\r\n\r\n",
         200, true, 2, false, false);

    // Bodyless statuses (RFC 9112 §6.3)
    done("204", "HTTP/1.1 204 No Content\r\n\r\n", 204, true, noLength, false, true);
    done("304", "HTTP/1.1 304 Not Modified\r\n\r\n", 304, true, noLength, false, true);
    done("304 with Content-Length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n", 304,
         true, 100, false, true);
    done("100 Continue", "HTTP/1.1 100 Continue\r\n\r\n", 100, true, noLength, false, true);
    done("205 has a body", "HTTP/1.1 205 Reset Content\r\nContent-Length: 0\r\n\r\n", 205, true, 0,
         false, false);

    // Persistence (RFC 9112 §9.3)
    done("1.0 closes by default", "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n", 200, false, 1,
         false, false);
    done("1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\n",
         200, true, 1, false, false);
    done("1.0 Keep-Alive mixed case", "HTTP/1.0 200 OK\r\nconnection: Keep-Alive\r\n\r\n", 200,
         true, noLength, false, false);
    done("1.0 keep-alive, close", "HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\n\r\n", 200,
         false, noLength, false, false);
    done("1.1 keeps by default", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n", 200, true, 1,
         false, false);
    done("1.1 Connection: close", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", 200, false,
         noLength, false, false);
    done("1.1 Connection: foo, Close", "HTTP/1.1 200 OK\r\nConnection: foo, Close\r\n\r\n", 200,
         false, noLength, false, false);
    done("1.1 Connection: closed", "HTTP/1.1 200 OK\r\nConnection: closed\r\n\r\n", 200, true,
         noLength, false, false);

    // Transfer-Encoding (RFC 9112 §6.1, §6.3)
    done("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 200, true, noLength,
         true, false);
    done("chunked upper case", "HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n", 200, true,
         noLength, true, false);
    done("gzip, chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 200, true,
         noLength, true, false);
    done("chunked not last", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 200,
         true, noLength, false, false);
    error("Content-Length + chunked",
          "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n");
    error("chunked + Content-Length",
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n");

    // Bad status lines
    error("empty status line", "\r\n\r\n");
    error("two-digit status", "HTTP/1.1 20 OK\r\n\r\n");
    error("four-digit status", "HTTP/1.1 2000 OK\r\n\r\n");
    error("status below 100", "HTTP/1.1 099 Low\r\n\r\n");
    error("letters in status", "HTTP/1.1 2x0 OK\r\n\r\n");
    error("no space after status", "HTTP/1.1 200OK\r\n\r\n");
    error("double space", "HTTP/1.1  200 OK\r\n\r\n");
    error("HTTP/2", "HTTP/2 200 OK\r\n\r\n");
    error("HTTP/1.2", "HTTP/1.2 200 OK\r\n\r\n");
    error("lowercase http", "http/1.1 200 OK\r\n\r\n");
    error("ICY", "ICY 200 OK\r\n\r\n");
    error("leading empty line", "\r\nHTTP/1.1 200 OK\r\n\r\n");

    // Bad fields
    error("field without colon", "HTTP/1.1 200 OK\r\nContent-Length 5\r\n\r\n");
    error("space before colon", "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n");
    error("obs-fold", "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\n\r\n");
    error("NUL in value", "HTTP/1.1 200 OK\r\nX-A: a" + nul + "b\r\n\r\n");

    // Bad and conflicting Content-Length
    error("Content-Length abc", "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n");
    error("Content-Length +5", "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n");
    error("Content-Length -1", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n");
    error("Content-Length empty", "HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n");
    error("Content-Length 5 5", "HTTP/1.1 200 OK\r\nContent-Length: 5 5\r\n\r\n");
    error("Content-Length overflow",
          "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n");
    error("Content-Length list 5, 6", "HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n");
    error("two different Content-Length",
          "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n");

    // Incomplete heads
    needMore("nothing", "");
    needMore("part of the status line", "HTTP/1.");
    needMore("status line without CRLF", "HTTP/1.1 200 OK");
    needMore("status line", "HTTP/1.1 200 OK\r\n");
    needMore("no final CRLF", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n");
    needMore("final CR only", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r");

    // Head size limit: 64 KiB, CRLFCRLF included.
    const QByteArray start = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: ";
    const int pad = int(ResponseParser::maxHeadBytes) - int(start.size()) - 4;
    const QByteArray exactHead = start + QByteArray(pad, 'p') + "\r\n\r\n";
    QCOMPARE(exactHead.size(), 64 * 1024);
    done("head of exactly 64 KiB", exactHead, 200, true, 0, false, false);
    error("head of 64 KiB + 1", start + QByteArray(pad + 1, 'p') + "\r\n\r\n");
    error("head over 64 KiB", start + QByteArray(100'000, 'p') + "\r\n\r\n");
    error("over 64 KiB, no end yet", start + QByteArray(70'000, 'p'));
    needMore("just under 64 KiB, no end yet", start + QByteArray(pad, 'p'));
}

void TestResponseParser::parse()
{
    QFETCH(QByteArray, raw);
    QFETCH(Status, outcome);

    ResponseParser parser;
    QCOMPARE(nameOf(parser.parse(view(raw))), nameOf(outcome));
    if (outcome != Status::Done)
        return;

    QFETCH(int, status);
    QFETCH(bool, keepAlive);
    QFETCH(qlonglong, contentLength);
    QFETCH(bool, chunked);
    QFETCH(bool, bodyless);
    QFETCH(int, headLength);
    QCOMPARE(parser.status(), status);
    QCOMPARE(parser.keepAlive(), keepAlive);
    QCOMPARE(parser.contentLength().has_value(), contentLength != noLength);
    if (contentLength != noLength)
        QCOMPARE(qlonglong(*parser.contentLength()), contentLength);
    QCOMPARE(parser.chunked(), chunked);
    QCOMPARE(parser.bodyless(), bodyless);
    QCOMPARE(parser.headLength(), std::size_t(headLength));
    QCOMPARE(parser.versionMinor(), raw.startsWith("HTTP/1.0") ? 0 : 1);
}

// Bytes arriving one at a time give the same result as all at once, and the head is Done
// exactly when its last byte arrives.
void TestResponseParser::parseByteByByte()
{
    QFETCH(QByteArray, raw);
    QFETCH(Status, outcome);
    QFETCH(int, headLength);

    ResponseParser parser;
    Status result = parser.parse(std::string_view());
    qsizetype fed = 0;
    while (result == Status::NeedMore && fed < raw.size()) {
        ++fed;
        result = parser.parse(view(raw).substr(0, std::size_t(fed)));
    }
    QCOMPARE(nameOf(result), nameOf(outcome));
    if (outcome != Status::Done)
        return;

    QFETCH(int, status);
    QFETCH(bool, keepAlive);
    QFETCH(qlonglong, contentLength);
    QFETCH(bool, chunked);
    QCOMPARE(fed, qsizetype(headLength));
    QCOMPARE(parser.headLength(), std::size_t(headLength));
    QCOMPARE(parser.status(), status);
    QCOMPARE(parser.keepAlive(), keepAlive);
    QCOMPARE(parser.contentLength().value_or(std::uint64_t(noLength)),
             std::uint64_t(contentLength));
    QCOMPARE(parser.chunked(), chunked);
}

void TestResponseParser::resetForgetsThePreviousResponse()
{
    const QByteArray first = "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\n";
    const QByteArray second = "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n";
    const QByteArray buffer = first + "hello" + second;

    ResponseParser parser;
    QCOMPARE(nameOf(parser.parse(view(buffer))), nameOf(Status::Done));
    QCOMPARE(parser.headLength(), std::size_t(first.size()));
    QCOMPARE(parser.contentLength().value_or(0), std::uint64_t(5));
    QVERIFY(!parser.keepAlive());

    parser.reset();
    QCOMPARE(parser.status(), 0);
    QCOMPARE(parser.headLength(), std::size_t(0));
    const auto rest = view(buffer).substr(std::size_t(first.size()) + 5);
    QCOMPARE(nameOf(parser.parse(rest)), nameOf(Status::Done));
    QCOMPARE(parser.status(), 204);
    QCOMPARE(parser.versionMinor(), 1);
    QVERIFY(!parser.contentLength().has_value());
    QVERIFY(parser.chunked());
    QVERIFY(parser.keepAlive());
    QVERIFY(parser.bodyless());
    QCOMPARE(parser.headLength(), std::size_t(second.size()));
}

QTEST_GUILESS_MAIN(TestResponseParser)
#include "tst_responseparser.moc"
