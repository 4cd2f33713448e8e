// SPDX-License-Identifier: Apache-2.0
#include "http/requestparser.h"

#include <QTest>

#include <string_view>

using servelab::http::Method;
using servelab::http::ParserLimits;
using servelab::http::RequestParser;
using Status = RequestParser::Status;

Q_DECLARE_METATYPE(servelab::http::RequestParser::Status)
Q_DECLARE_METATYPE(servelab::http::Method)

namespace {

QByteArray nameOf(Status status)
{
    switch (status) {
    case Status::NeedMore: return "NeedMore";
    case Status::Done: return "Done";
    case Status::Error: return "Error";
    }
    return "?";
}

QByteArray nameOf(Method method)
{
    switch (method) {
    case Method::Get: return "GET";
    case Method::Head: return "HEAD";
    case Method::Options: return "OPTIONS";
    case Method::Other: return "Other";
    }
    return "?";
}

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

// A complete HTTP/1.1 GET head with a Host field plus `fields` (each CRLF-terminated).
QByteArray get11(const QByteArray &fields = {})
{
    return "GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n";
}

void done(const char *name, const QByteArray &raw, bool keepAlive, Method method,
          const QByteArray &target, qulonglong contentLength = 0)
{
    QTest::newRow(name) << raw << Status::Done << 0 << keepAlive << method << target
                        << contentLength;
}

// Method, target and keepAlive mean nothing after an error or before the end of the head.
void error(const char *name, const QByteArray &raw, int status)
{
    QTest::newRow(name) << raw << Status::Error << status << false << Method::Get << QByteArray()
                        << qulonglong(0);
}

void needMore(const char *name, const QByteArray &raw)
{
    QTest::newRow(name) << raw << Status::NeedMore << 0 << false << Method::Get << QByteArray()
                        << qulonglong(0);
}

// n fields "X-<i>: v" (CRLF-terminated), so that with Host a head has n + 1 fields.
QByteArray fieldLines(int n)
{
    QByteArray out;
    for (int i = 0; i < n; ++i)
        out += "X-" + QByteArray::number(i) + ": v\r\n";
    return out;
}

} // namespace

class TestRequestParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void parseByteByByte_data() { parse_data(); }
    void parseByteByByte();
    void headLength_data();
    void headLength();
    void resetParsesPipelinedRequest();
    void resetClearsError();
    void resetClearsPartialState();
    void customLimits();
    void framingAndConditionalFields();
};

void TestRequestParser::framingAndConditionalFields()
{
    RequestParser parser;
    QCOMPARE(parser.parse(view(get11("Transfer-Encoding: Chunked\r\n"
                                     "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
                                     "Range: bytes=0-99\r\n"))),
             Status::Done);
    QVERIFY(parser.request().chunked);
    QCOMPARE(qint64(parser.request().ifModifiedSince), qint64(784111777));
    QCOMPARE(QByteArray::fromStdString(parser.request().range), QByteArray("bytes=0-99"));

    parser.reset();
    // A date we cannot read is ignored, not an error (the response is then a full 200).
    QCOMPARE(parser.parse(view(get11("If-Modified-Since: yesterday\r\n"))), Status::Done);
    QCOMPARE(qint64(parser.request().ifModifiedSince), qint64(-1));
    QVERIFY(!parser.request().chunked);
    QVERIFY(parser.request().range.empty());
}

void TestRequestParser::parse_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<Status>("outcome");
    QTest::addColumn<int>("errorStatus");
    QTest::addColumn<bool>("keepAlive");
    QTest::addColumn<Method>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<qulonglong>("contentLength");

    const QByteArray nul(1, '\0');

    // Methods
    done("GET", get11(), true, Method::Get, "/");
    done("HEAD", "HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Head, "/index.html");
    done("POST is Other", "POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", true,
         Method::Other, "/form", 3);
    done("DELETE is Other", "DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Other, "/x");
    done("lowercase get is Other", "get / HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Other, "/");
    done("token method M-SEARCH", "M-SEARCH / HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Other,
         "/");
    done("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Options, "*");
    done("OPTIONS /", "OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Options, "/");
    error("DELETE *", "DELETE * HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    // RFC 9112 §3: a method longer than any implemented is 501, however long the line.
    done("method of 32 characters", QByteArray(32, 'M') + " / HTTP/1.1\r\nHost: x\r\n\r\n", true,
         Method::Other, "/");
    error("method of 33 characters", QByteArray(33, 'M') + " / HTTP/1.1\r\nHost: x\r\n\r\n", 501);
    error("method past the line limit", QByteArray(9000, 'M') + " / HTTP/1.1\r\nHost: x\r\n\r\n",
          501);
    error("method past the line limit, no space yet", QByteArray(9000, 'M'), 501);
    error("GET *", "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("method with (", "G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("empty method", " / HTTP/1.1\r\nHost: x\r\n\r\n", 400);

    // Persistence (RFC 9112 §9.3)
    done("1.0 closes by default", "GET / HTTP/1.0\r\n\r\n", false, Method::Get, "/");
    done("1.0 with Host", "GET / HTTP/1.0\r\nHost: x\r\n\r\n", false, Method::Get, "/");
    done("1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true, Method::Get,
         "/");
    done("1.0 Keep-Alive mixed case", "GET / HTTP/1.0\r\nconnection: Keep-Alive\r\n\r\n", true,
         Method::Get, "/");
    done("1.0 keep-alive, close", "GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", false,
         Method::Get, "/");
    done("1.0 keep-alive in list", "GET / HTTP/1.0\r\nConnection: foo,keep-alive\r\n\r\n", true,
         Method::Get, "/");
    done("1.1 keeps by default", get11(), true, Method::Get, "/");
    done("1.1 close", get11("Connection: close\r\n"), false, Method::Get, "/");
    done("1.1 CLOSE", get11("Connection: CLOSE\r\n"), false, Method::Get, "/");
    done("1.1 foo, close", get11("Connection: foo, close\r\n"), false, Method::Get, "/");
    done("1.1 close with OWS", get11("Connection:  foo ,\tclose \t\r\n"), false, Method::Get, "/");
    done("1.1 close in second field", get11("Connection: foo\r\nConnection: close\r\n"), false,
         Method::Get, "/");
    done("1.1 closed is not close", get11("Connection: closed\r\n"), true, Method::Get, "/");
    done("1.1 keep-alive token", get11("Connection: keep-alive\r\n"), true, Method::Get, "/");
    done("1.1 keep-alive, close", get11("Connection: keep-alive, close\r\n"), false, Method::Get,
         "/");

    // Targets
    done("query kept", "GET /a?x=1 HTTP/1.1\r\nHost: x\r\n\r\n", true, Method::Get, "/a?x=1");
    done("absolute-form", "GET http://example.com/a/b?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
         true, Method::Get, "/a/b?q=1");
    done("absolute-form without path", "GET http://example.com HTTP/1.1\r\nHost: x\r\n\r\n", true,
         Method::Get, "/");
    done("absolute-form HTTPS upper case", "GET HTTPS://Ex.com:8080/x HTTP/1.1\r\nHost: x\r\n\r\n",
         true, Method::Get, "/x");
    error("target with space", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("target without /", "GET a HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("target scheme only", "GET http:// HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("target with DEL", "GET /a\x7f HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("target with NUL", "GET /a" + nul + "b HTTP/1.1\r\nHost: x\r\n\r\n", 400);

    // Request-line syntax (RFC 9112 §3)
    error("double space after method", "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("double space before version", "GET /  HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("trailing space", "GET / HTTP/1.1 \r\nHost: x\r\n\r\n", 400);
    error("tab separators", "GET\t/\tHTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("no version", "GET /\r\nHost: x\r\n\r\n", 400);
    error("HTTP/1.32", "GET / HTTP/1.32\r\nHost: x\r\n\r\n", 400);
    error("HTTP/1", "GET / HTTP/1\r\nHost: x\r\n\r\n", 400);
    error("HTTP/1.x", "GET / HTTP/1.x\r\nHost: x\r\n\r\n", 400);
    error("lowercase http/1.1", "GET / http/1.1\r\nHost: x\r\n\r\n", 400);
    error("HTTP/2.0 is 505", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505);
    error("HTTP/0.9 is 505", "GET / HTTP/0.9\r\nHost: x\r\n\r\n", 505);
    done("HTTP/1.2 is 1.x", "GET / HTTP/1.2\r\nHost: x\r\n\r\n", true, Method::Get, "/");
    error("HTTP/1.2 needs Host", "GET / HTTP/1.2\r\n\r\n", 400);

    // Host (RFC 9112 §3.2)
    error("1.1 without Host", "GET / HTTP/1.1\r\n\r\n", 400);
    error("1.1 two Host", get11("Host: y\r\n"), 400);
    error("1.0 two Host", "GET / HTTP/1.0\r\nHost: x\r\nHost: y\r\n\r\n", 400);
    done("empty Host", "GET / HTTP/1.1\r\nHost:\r\n\r\n", true, Method::Get, "/");
    done("host lower case", "GET / HTTP/1.1\r\nhOST: x\r\n\r\n", true, Method::Get, "/");
    // A Host value must be uri-host [":" port] (RFC 9110 §7.2, RFC 3986 §3.2.2).
    for (const char *host : {"example.com", "example.com:8080", "example.com:", "127.0.0.1",
                             "127.0.0.1:80", "[::1]", "[::1]:8080", "[2001:db8::7]",
                             "[::ffff:192.0.2.1]", "[v1.fe:80]", "a-b_c~d.e", "%41b",
                             "sub!$&'()*+,;=delims", "xn--caf-dma.example"}) {
        done(qPrintable(QStringLiteral("valid Host %1").arg(QLatin1String(host))),
             "GET / HTTP/1.1\r\nHost: " + QByteArray(host) + "\r\n\r\n", true, Method::Get, "/");
    }
    for (const char *host : {"a b", "user@example.com", "example.com:80a", "example.com:80:81",
                             "[::1", "[::1]x", "[::1]:8a", "[zz::1]", "[]", "[v1.]", "[vz.a]",
                             "ex/ample", "ex?ample", "ex#ample", "%4", "%zz", "ex\"ample",
                             "<example>", "ex\\ample", "caf\xc3\xa9", "example.com/"}) {
        error(qPrintable(QStringLiteral("invalid Host %1").arg(QString::fromLatin1(host))),
              "GET / HTTP/1.1\r\nHost: " + QByteArray(host) + "\r\n\r\n", 400);
    }

    // Field syntax (RFC 9112 §5, RFC 9110 §5.5)
    error("obs-fold space", get11("X-A: a\r\n b\r\n"), 400);
    error("obs-fold tab", get11("X-A: a\r\n\tb\r\n"), 400);
    error("space before colon", "GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400);
    error("tab before colon", "GET / HTTP/1.1\r\nHost\t: x\r\n\r\n", 400);
    error("empty field name", get11(": x\r\n"), 400);
    error("field without colon", get11("X-A x\r\n"), 400);
    error("field name with (", get11("X(A): x\r\n"), 400);
    done("token chars in name", get11("X-a_b.c!#$%&'*+^`|~1: v\r\n"), true, Method::Get, "/");
    done("value OWS and tab inside", get11("X-A: \t a\tb \t\r\n"), true, Method::Get, "/");
    done("obs-text in value", get11("X-A: caf\xc3\xa9\r\n"), true, Method::Get, "/");
    error("NUL in value", get11("X-A: a" + nul + "b\r\n"), 400);
    error("DEL in value",
          get11("X-A: a\x7f"
                "b\r\n"),
          400);
    error("control byte in value",
          get11("X-A: a\x01"
                "b\r\n"),
          400);
    error("bare LF after request line", "GET / HTTP/1.1\nHost: x\r\n\r\n", 400);
    error("bare LF ending the head", "GET / HTTP/1.1\r\nHost: x\n\n", 400);
    error("bare LF in value", get11("X-A: a\nb\r\n"), 400);
    error("bare CR in request line", "GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n", 400);
    error("bare CR in value", get11("X-A: a\rb\r\n"), 400);
    error("CR CR LF", "GET / HTTP/1.1\r\r\nHost: x\r\n\r\n", 400);

    // Limits
    const QByteArray line8192 = "GET /" + QByteArray(8192 - 14, 'a') + " HTTP/1.1";
    QCOMPARE(line8192.size(), 8192);
    done("request line of 8192 bytes", line8192 + "\r\nHost: x\r\n\r\n", true, Method::Get,
         "/" + QByteArray(8192 - 14, 'a'));
    const QByteArray line8193 = "GET /" + QByteArray(8193 - 14, 'a') + " HTTP/1.1";
    error("request line of 8193 bytes", line8193 + "\r\nHost: x\r\n\r\n", 414);
    error("long request line, no CRLF yet", "GET /" + QByteArray(9000, 'a'), 414);
    const QByteArray field8192 = "X-Long: " + QByteArray(8192 - 8, 'v');
    done("field line of 8192 bytes", get11(field8192 + "\r\n"), true, Method::Get, "/");
    error("field line of 8193 bytes", get11(field8192 + "v\r\n"), 431);
    error("long field line, no CRLF yet", "GET / HTTP/1.1\r\nX-Long: " + QByteArray(9000, 'v'),
          431);
    done("100 fields", get11(fieldLines(99)), true, Method::Get, "/");
    error("101 fields", get11(fieldLines(100)), 431);
    // 9 fields of 8000 bytes: every line within its limit, the head (~72 KiB) over 64 KiB.
    QByteArray bigFields;
    for (int i = 0; i < 9; ++i)
        bigFields += "X-" + QByteArray::number(i) + ": " + QByteArray(8000, 'v') + "\r\n";
    error("head over 64 KiB", get11(bigFields), 431);
    error("head over 64 KiB, no end yet", "GET / HTTP/1.1\r\nHost: x\r\n" + bigFields, 431);

    // Content-Length (RFC 9110 §8.6, RFC 9112 §6.3)
    done("Content-Length 5", get11("Content-Length: 5\r\n"), true, Method::Get, "/", 5);
    done("Content-Length 0", get11("Content-Length: 0\r\n"), true, Method::Get, "/", 0);
    done("Content-Length 2^63-1", get11("Content-Length: 9223372036854775807\r\n"), true,
         Method::Get, "/", 9223372036854775807ull);
    done("Content-Length 1,1", get11("Content-Length: 1,1\r\n"), true, Method::Get, "/", 1);
    done("Content-Length 1 , 1", get11("Content-Length: 1 , 1\r\n"), true, Method::Get, "/", 1);
    done("two equal Content-Length", get11("Content-Length: 7\r\nContent-Length: 7\r\n"), true,
         Method::Get, "/", 7);
    error("Content-Length +1", get11("Content-Length: +1\r\n"), 400);
    error("Content-Length -1", get11("Content-Length: -1\r\n"), 400);
    error("Content-Length empty", get11("Content-Length:\r\n"), 400);
    error("Content-Length blank", get11("Content-Length:   \r\n"), 400);
    error("Content-Length 1,2", get11("Content-Length: 1,2\r\n"), 400);
    error("Content-Length ,1", get11("Content-Length: ,1\r\n"), 400);
    error("Content-Length 1,", get11("Content-Length: 1,\r\n"), 400);
    error("Content-Length 1 2", get11("Content-Length: 1 2\r\n"), 400);
    error("Content-Length 0x10", get11("Content-Length: 0x10\r\n"), 400);
    error("Content-Length overflow", get11("Content-Length: 99999999999999999999\r\n"), 400);
    error("Content-Length 2^63", get11("Content-Length: 9223372036854775808\r\n"), 400);
    error("two different Content-Length", get11("Content-Length: 1\r\nContent-Length: 2\r\n"), 400);

    // Transfer-Encoding (RFC 9112 §6.1)
    error("CL + TE", get11("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"), 400);
    error("TE + CL", get11("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"), 400);
    done("TE chunked in 1.1", get11("Transfer-Encoding: chunked\r\n"), true, Method::Get, "/");
    error("TE chunked twice", get11("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"),
          400);
    // §7: chunked applied twice; §6.3: chunked not the final coding — the body's length
    // cannot be known, so 400, never the 501 of a coding we merely do not implement.
    error("TE chunked, chunked", get11("Transfer-Encoding: chunked, chunked\r\n"), 400);
    error("TE empty", get11("Transfer-Encoding: \r\n"), 400);
    error("TE only commas", get11("Transfer-Encoding: , ,\r\n"), 400);
    error("TE gzip alone is 400", get11("Transfer-Encoding: gzip\r\n"), 400);
    error("TE chunked, gzip is 400", get11("Transfer-Encoding: chunked, gzip\r\n"), 400);
    error("TE chunked then a gzip line is 400",
          get11("Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n"), 400);
    error("TE chunked with a parameter is not chunked", get11("Transfer-Encoding: chunked;q=1\r\n"),
          400);
    error("TE coding not a token", get11("Transfer-Encoding: gz(ip), chunked\r\n"), 400);
    error("TE gzip, chunked in 1.1 is 501", get11("Transfer-Encoding: gzip, chunked\r\n"), 501);
    error("TE gzip line then a chunked line is 501",
          get11("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n"), 501);
    error("TE in 1.0", "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400);

    // Empty lines before the request line (RFC 9112 §2.2)
    done("one leading empty line", "\r\n" + get11(), true, Method::Get, "/");
    done("four leading empty lines", "\r\n\r\n\r\n\r\n" + get11(), true, Method::Get, "/");
    error("five leading empty lines", "\r\n\r\n\r\n\r\n\r\n" + get11(), 400);
    error("leading bare LF", "\n" + get11(), 400);

    // Incomplete heads
    needMore("nothing", "");
    needMore("part of the method", "GE");
    needMore("request line without CRLF", "GET / HTTP/1.1");
    needMore("request line and CR", "GET / HTTP/1.1\r");
    needMore("request line only", "GET / HTTP/1.1\r\n");
    needMore("field without CRLF", "GET / HTTP/1.1\r\nHost: x");
    needMore("no final CRLF", "GET / HTTP/1.1\r\nHost: x\r\n");
    needMore("final CR only", "GET / HTTP/1.1\r\nHost: x\r\n\r");
    needMore("only empty lines", "\r\n\r\n");
    needMore("missing Host not known yet", "GET / HTTP/1.1\r\nX-A: b\r\n");
    needMore("100 fields, no end yet", "GET / HTTP/1.1\r\nHost: x\r\n" + fieldLines(99));
}

void TestRequestParser::parse()
{
    QFETCH(QByteArray, raw);
    QFETCH(Status, outcome);
    QFETCH(int, errorStatus);

    RequestParser parser;
    const Status status = parser.parse(view(raw));
    QCOMPARE(nameOf(status), nameOf(outcome));
    QCOMPARE(parser.errorStatus(), errorStatus);
    if (outcome != Status::Done)
        return;

    QFETCH(bool, keepAlive);
    QFETCH(Method, method);
    QFETCH(QByteArray, target);
    QFETCH(qulonglong, contentLength);
    const auto &request = parser.request();
    QCOMPARE(request.keepAlive, keepAlive);
    QCOMPARE(nameOf(request.method), nameOf(method));
    QCOMPARE(QByteArray::fromStdString(request.target), target);
    QCOMPARE(qulonglong(request.contentLength), contentLength);
    QCOMPARE(parser.headLength(), std::size_t(raw.size()));
}

// A head dribbled in one byte at a time must give the same answer as the whole head at once:
// NeedMore for every proper prefix of a complete head, then Done on its last byte.
void TestRequestParser::parseByteByByte()
{
    QFETCH(QByteArray, raw);
    QFETCH(Status, outcome);
    QFETCH(int, errorStatus);

    RequestParser parser;
    Status status = Status::NeedMore;
    qsizetype fed = 0;
    while (fed < raw.size()) {
        ++fed;
        status = parser.parse(view(raw).substr(0, std::size_t(fed)));
        if (status != Status::NeedMore)
            break;
    }
    if (raw.isEmpty())
        status = parser.parse(view(raw));
    QCOMPARE(nameOf(status), nameOf(outcome));
    QCOMPARE(parser.errorStatus(), errorStatus);
    if (outcome != Status::Done)
        return;
    QCOMPARE(fed, raw.size());

    QFETCH(bool, keepAlive);
    QFETCH(Method, method);
    QFETCH(QByteArray, target);
    QFETCH(qulonglong, contentLength);
    QCOMPARE(parser.request().keepAlive, keepAlive);
    QCOMPARE(nameOf(parser.request().method), nameOf(method));
    QCOMPARE(QByteArray::fromStdString(parser.request().target), target);
    QCOMPARE(qulonglong(parser.request().contentLength), contentLength);
    QCOMPARE(parser.headLength(), std::size_t(raw.size()));
}

void TestRequestParser::headLength_data()
{
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<int>("expected");

    const QByteArray post = "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n";
    QTest::newRow("body follows") << post + "hello" << int(post.size());
    QTest::newRow("body holds CRLFCRLF") << post + "\r\n\r\n\r" << int(post.size());
    QTest::newRow("part of a body") << post + "he" << int(post.size());
    QTest::newRow("pipelined request follows") << get11() + "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
                                               << int(get11().size());
    QTest::newRow("leading empty lines count")
        << "\r\n\r\n" + post + "hello" << int(post.size() + 4);
    QTest::newRow("1.0 with body bytes")
        << QByteArray("GET / HTTP/1.0\r\n\r\nxyz") << int(sizeof "GET / HTTP/1.0\r\n\r\n" - 1);
}

void TestRequestParser::headLength()
{
    QFETCH(QByteArray, raw);
    QFETCH(int, expected);

    RequestParser parser;
    QCOMPARE(nameOf(parser.parse(view(raw))), nameOf(Status::Done));
    QCOMPARE(parser.headLength(), std::size_t(expected));

    RequestParser dribbled;
    Status status = Status::NeedMore;
    for (qsizetype fed = 1; fed <= raw.size() && status == Status::NeedMore; ++fed)
        status = dribbled.parse(view(raw).substr(0, std::size_t(fed)));
    QCOMPARE(nameOf(status), nameOf(Status::Done));
    QCOMPARE(dribbled.headLength(), std::size_t(expected));
}

void TestRequestParser::resetParsesPipelinedRequest()
{
    const QByteArray first = "GET /one HTTP/1.1\r\nHost: x\r\n\r\n";
    const QByteArray second = "HEAD /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    const QByteArray buffer = first + second + "GET /thr";

    RequestParser parser;
    QCOMPARE(nameOf(parser.parse(view(buffer))), nameOf(Status::Done));
    QCOMPARE(parser.headLength(), std::size_t(first.size()));
    QCOMPARE(parser.request().target, std::string("/one"));
    QVERIFY(parser.request().keepAlive);

    parser.reset();
    QCOMPARE(parser.headLength(), std::size_t(0));
    const auto rest = view(buffer).substr(std::size_t(first.size()));
    QCOMPARE(nameOf(parser.parse(rest)), nameOf(Status::Done));
    QCOMPARE(parser.headLength(), std::size_t(second.size()));
    QCOMPARE(nameOf(parser.request().method), nameOf(Method::Head));
    QCOMPARE(parser.request().target, std::string("/two"));
    QVERIFY(!parser.request().keepAlive);

    parser.reset();
    QCOMPARE(nameOf(parser.parse(rest.substr(std::size_t(second.size())))),
             nameOf(Status::NeedMore));
}

void TestRequestParser::resetClearsError()
{
    RequestParser parser;
    QCOMPARE(nameOf(parser.parse("GET / HTTP/2.0\r\n\r\n")), nameOf(Status::Error));
    QCOMPARE(parser.errorStatus(), 505);
    // The error sticks until reset, whatever comes next.
    QCOMPARE(nameOf(parser.parse(view(get11()))), nameOf(Status::Error));
    parser.reset();
    QCOMPARE(parser.errorStatus(), 0);
    QCOMPARE(nameOf(parser.parse(view(get11()))), nameOf(Status::Done));
    QCOMPARE(parser.errorStatus(), 0);
}

void TestRequestParser::resetClearsPartialState()
{
    RequestParser parser;
    // A long partial request line and a field count left over must not leak into the next head.
    QCOMPARE(nameOf(parser.parse("\r\nPOST /a-rather-long-target HTTP/1.0\r\nX: y\r\n")),
             nameOf(Status::NeedMore));
    parser.reset();
    const QByteArray next = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n";
    QCOMPARE(nameOf(parser.parse(view(next))), nameOf(Status::Done));
    QCOMPARE(parser.request().target, std::string("/b"));
    QCOMPARE(parser.request().versionMinor, 1);
    QCOMPARE(parser.request().contentLength, std::uint64_t(0));
    QCOMPARE(parser.headLength(), std::size_t(next.size()));
}

void TestRequestParser::customLimits()
{
    ParserLimits limits;
    limits.maxRequestLine = 20;
    limits.maxFieldLine = 10;
    limits.maxFields = 2;

    RequestParser parser(limits);
    QCOMPARE(nameOf(parser.parse("GET /0123456789ab HTTP/1.1\r\n")), nameOf(Status::Error));
    QCOMPARE(parser.errorStatus(), 414);

    parser.reset();
    QCOMPARE(nameOf(parser.parse("GET / HTTP/1.1\r\nHost: x\r\nX-A: 123456\r\n\r\n")),
             nameOf(Status::Error));
    QCOMPARE(parser.errorStatus(), 431);

    parser.reset();
    QCOMPARE(nameOf(parser.parse("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\n\r\n")),
             nameOf(Status::Error));
    QCOMPARE(parser.errorStatus(), 431);

    parser.reset();
    QCOMPARE(nameOf(parser.parse("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\n\r\n")),
             nameOf(Status::Done));

    ParserLimits small;
    small.maxHeadBytes = 40;
    const QByteArray head = "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
    QCOMPARE(head.size(), 45);
    RequestParser whole(small);
    QCOMPARE(nameOf(whole.parse(view(head))), nameOf(Status::Error));
    QCOMPARE(whole.errorStatus(), 431);
    RequestParser fits(small);
    QCOMPARE(nameOf(fits.parse(view(head.left(37) + "\r\n"))), nameOf(Status::Done));
}

QTEST_GUILESS_MAIN(TestRequestParser)
#include "tst_requestparser.moc"
