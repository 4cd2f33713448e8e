// SPDX-License-Identifier: Apache-2.0
#include "http/httpdate.h"
#include "http/responsewriter.h"

#include <QTest>

#include <limits>
#include <span>
#include <string>

using namespace servelab::http;

namespace {

constexpr std::string_view date = "Sun, 06 Nov 1994 08:49:37 GMT";

QByteArray bytes(const std::string &s)
{
    return QByteArray::fromStdString(s);
}

// The value of header `name` in a response head, or a null QByteArray when absent.
QByteArray headerValue(const QByteArray &response, const QByteArray &name)
{
    const auto head = response.left(response.indexOf("\r\n\r\n"));
    const auto lines = head.split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].chopped(lines[i].endsWith('\r') ? 1 : 0);
        const auto colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).compare(name, Qt::CaseInsensitive) == 0)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

int headerCount(const QByteArray &response, const QByteArray &name)
{
    const auto head = response.left(response.indexOf("\r\n\r\n"));
    int count = 0;
    for (const auto &line : head.split('\n'))
        count += line.startsWith(name + ':') ? 1 : 0;
    return count;
}

// Every line of a head ends in CRLF, and CRLFCRLF appears exactly once, at the end of the head.
bool wellFramed(const QByteArray &head)
{
    if (!head.endsWith("\r\n\r\n") || head.indexOf("\r\n\r\n") != head.size() - 4)
        return false;
    for (qsizetype i = 0; i < head.size(); ++i) {
        if (head[i] == '\n' && (i == 0 || head[i - 1] != '\r'))
            return false;
        if (head[i] == '\r' && (i + 1 == head.size() || head[i + 1] != '\n'))
            return false;
    }
    return true;
}

} // namespace

class TestResponseWriter : public QObject
{
    Q_OBJECT

private slots:
    void appendResponseHead_data();
    void appendResponseHead();
    void appendResponseHeadAppends();
    void listResponseFieldsForHttp2();
    void errorResponse_data();
    void errorResponse();
    void statusClosesConnection_data();
    void statusClosesConnection();
    void formatHttpDate_data();
    void formatHttpDate();
    void dateCacheIsCurrent();
};

void TestResponseWriter::appendResponseHead_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<qulonglong>("contentLength");
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<qlonglong>("lastModified");
    QTest::addColumn<bool>("keepAlive");
    QTest::addColumn<bool>("http10");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray start = "Server: ServeLab\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n";
    QTest::newRow("200 keep-alive 1.1")
        << 200 << 1000ull << QByteArray("text/plain") << -1ll << true << false
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\n";
    QTest::newRow("200 keep-alive 1.0")
        << 200 << 1000ull << QByteArray("text/plain") << -1ll << true << true
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/plain\r\nContent-Length: 1000\r\n"
               "Connection: keep-alive\r\n\r\n";
    QTest::newRow("200 close 1.1")
        << 200 << 1000ull << QByteArray("text/plain") << -1ll << false << false
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/plain\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n";
    QTest::newRow("200 close 1.0")
        << 200 << 1000ull << QByteArray("text/plain") << -1ll << false << true
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/plain\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n";
    QTest::newRow("Last-Modified")
        << 200 << 5ull << QByteArray("text/html") << 784111777ll << true << false
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/html\r\nContent-Length: 5\r\n"
               "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
    QTest::newRow("Last-Modified at the epoch")
        << 200 << 5ull << QByteArray("text/html") << 0ll << true << false
        << "HTTP/1.1 200 OK\r\n" + start +
               "Content-Type: text/html\r\nContent-Length: 5\r\n"
               "Last-Modified: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\n";
    QTest::newRow("no Content-Type") << 200 << 0ull << QByteArray() << -1ll << true << false
                                     << "HTTP/1.1 200 OK\r\n" + start + "Content-Length: 0\r\n\r\n";
    QTest::newRow("largest Content-Length")
        << 200 << std::numeric_limits<qulonglong>::max() << QByteArray() << -1ll << true << false
        << "HTTP/1.1 200 OK\r\n" + start + "Content-Length: 18446744073709551615\r\n\r\n";
    QTest::newRow("405 has Allow") << 405 << 0ull << QByteArray() << -1ll << true << false
                                   << "HTTP/1.1 405 Method Not Allowed\r\n" + start +
                                          "Content-Length: 0\r\nAllow: GET, HEAD, OPTIONS\r\n\r\n";
    QTest::newRow("304") << 304 << 0ull << QByteArray() << -1ll << true << false
                         << "HTTP/1.1 304 Not Modified\r\n" + start + "Content-Length: 0\r\n\r\n";
    QTest::newRow("404 close")
        << 404 << 9ull << QByteArray("text/html") << -1ll << false << false
        << "HTTP/1.1 404 Not Found\r\n" + start +
               "Content-Type: text/html\r\nContent-Length: 9\r\nConnection: close\r\n\r\n";
    QTest::newRow("unknown status")
        << 299 << 0ull << QByteArray() << -1ll << true << false
        << "HTTP/1.1 299 Unknown\r\n" + start + "Content-Length: 0\r\n\r\n";
}

void TestResponseWriter::appendResponseHead()
{
    QFETCH(int, status);
    QFETCH(qulonglong, contentLength);
    QFETCH(QByteArray, contentType);
    QFETCH(qlonglong, lastModified);
    QFETCH(bool, keepAlive);
    QFETCH(bool, http10);
    QFETCH(QByteArray, expected);

    ResponseHead head;
    head.status = status;
    head.contentLength = contentLength;
    head.contentType = std::string_view(contentType.constData(), contentType.size());
    head.lastModified = std::time_t(lastModified);
    head.keepAlive = keepAlive;
    head.http10 = http10;
    std::string out;
    servelab::http::appendResponseHead(out, head, date);
    QCOMPARE(bytes(out), expected);
    QVERIFY(wellFramed(bytes(out)));
    QCOMPARE(headerValue(bytes(out), "Allow").isNull(), status != 405);
}

void TestResponseWriter::appendResponseHeadAppends()
{
    std::string out = "previous response";
    ResponseHead head;
    servelab::http::appendResponseHead(out, head, date);
    QVERIFY(out.starts_with("previous responseHTTP/1.1 200 OK\r\n"));
    QVERIFY(out.ends_with("\r\n\r\n"));
}

// HTTP/2's fields are HTTP/1.1's head, lower-case, less Connection; numbers and an
// unformatted date are written into the list's own text.
void TestResponseWriter::listResponseFieldsForHttp2()
{
    ResponseHead head;
    head.status = 206;
    head.contentLength = 100;
    head.contentType = "text/plain";
    head.range = ResponseHead::Range::Partial;
    head.rangeFirst = 18446744073709551000ull; // twenty digits each: the text's worst case
    head.rangeLast = 18446744073709551099ull;
    head.completeLength = 18446744073709551614ull;
    head.acceptRanges = true;
    head.lastModified = 784111777; // formatted here: no lastModifiedText
    head.keepAlive = false;
    std::string h1;
    servelab::http::appendResponseHead(h1, head, date);
    for (const bool http2 : {false, true}) {
        ResponseFields fields;
        listResponseFields(head, date, http2, &fields);
        QCOMPARE(fields.count, http2 ? 7u : 8u);
        for (const auto &f : std::span(fields.fields, fields.count)) {
            QCOMPARE(QByteArray::fromStdString(std::string(f.name)).toLower(),
                     QByteArray::fromStdString(std::string(f.lower)));
            QCOMPARE(headerValue(bytes(h1), QByteArray::fromStdString(std::string(f.name))),
                     QByteArray::fromStdString(std::string(f.value)));
            QVERIFY(!http2 || f.lower != "connection");
        }
    }
    QCOMPARE(headerValue(bytes(h1), "Content-Range"),
             QByteArray("bytes 18446744073709551000-18446744073709551099/18446744073709551614"));
    QCOMPARE(headerValue(bytes(h1), "Last-Modified"), QByteArray(date.data(), date.size()));
    QCOMPARE(headerValue(bytes(h1), "Connection"), QByteArray("close"));
}

void TestResponseWriter::errorResponse_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("keepAlive");
    QTest::addColumn<bool>("http10");
    QTest::addColumn<bool>("headOnly");
    QTest::addColumn<QByteArray>("connection"); // expected Connection value, null if absent

    const QByteArray none;
    const QByteArray close = "close";
    const QByteArray keepAlive = "keep-alive";
    QTest::newRow("404 GET keep-alive") << 404 << true << false << false << none;
    QTest::newRow("404 HEAD keep-alive") << 404 << true << false << true << none;
    QTest::newRow("404 GET 1.0 keep-alive") << 404 << true << true << false << keepAlive;
    QTest::newRow("404 GET close") << 404 << false << false << false << close;
    QTest::newRow("403 GET keep-alive") << 403 << true << false << false << none;
    QTest::newRow("405 GET keep-alive") << 405 << true << false << false << none;
    QTest::newRow("500 HEAD keep-alive") << 500 << true << false << true << none;
    QTest::newRow("503 GET 1.0 close") << 503 << false << true << false << close;
    for (int status : {400, 414, 431, 501, 505}) {
        const QByteArray n = QByteArray::number(status);
        QTest::newRow((n + " GET keep-alive closes").constData())
            << status << true << false << false << close;
        QTest::newRow((n + " HEAD keep-alive closes").constData())
            << status << true << false << true << close;
        QTest::newRow((n + " GET 1.0 keep-alive closes").constData())
            << status << true << true << false << close;
    }
}

void TestResponseWriter::errorResponse()
{
    QFETCH(int, status);
    QFETCH(bool, keepAlive);
    QFETCH(bool, http10);
    QFETCH(bool, headOnly);
    QFETCH(QByteArray, connection);

    const QByteArray response =
        bytes(servelab::http::errorResponse(status, keepAlive, http10, headOnly, date));
    const QByteArray reason = bytes(std::string(reasonPhrase(status)));
    QVERIFY(reason != "Unknown");
    QVERIFY(response.startsWith("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n"));

    const auto end = response.indexOf("\r\n\r\n");
    QVERIFY(end > 0);
    const QByteArray head = response.left(end + 4);
    const QByteArray body = response.mid(end + 4);
    QVERIFY(wellFramed(head));
    QCOMPARE(headerValue(response, "Date"), QByteArray(date.data(), date.size()));
    QCOMPARE(headerValue(response, "Content-Type"), QByteArray("text/html; charset=utf-8"));
    QCOMPARE(headerValue(response, "Connection"), connection);
    QCOMPARE(headerCount(response, "Connection"), connection.isNull() ? 0 : 1);
    QCOMPARE(headerCount(response, "Content-Length"), 1);
    QCOMPARE(headerValue(response, "Allow").isNull(), status != 405);

    // HEAD gets the same Content-Length as GET (RFC 9110 §9.3.2) but no body.
    const QByteArray getBody =
        bytes(servelab::http::errorResponse(status, keepAlive, http10, false, date)).mid(end + 4);
    QCOMPARE(headerValue(response, "Content-Length"), QByteArray::number(getBody.size()));
    if (headOnly) {
        QVERIFY(body.isEmpty());
    } else {
        QCOMPARE(body, getBody);
        QVERIFY(!body.isEmpty());
        QVERIFY(body.contains(reason));
    }
}

void TestResponseWriter::statusClosesConnection_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("closes");

    for (int status : {400, 414, 431, 501, 505})
        QTest::newRow(QByteArray::number(status).constData()) << status << true;
    for (int status : {200, 304, 403, 404, 405, 500, 503})
        QTest::newRow(QByteArray::number(status).constData()) << status << false;
}

void TestResponseWriter::statusClosesConnection()
{
    QFETCH(int, status);
    QFETCH(bool, closes);
    QCOMPARE(servelab::http::statusClosesConnection(status), closes);
}

void TestResponseWriter::formatHttpDate_data()
{
    QTest::addColumn<qlonglong>("time");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("epoch") << 0ll << QByteArray("Thu, 01 Jan 1970 00:00:00 GMT");
    QTest::newRow("RFC 9110 example") << 784111777ll << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT");
    QTest::newRow("leap day") << 951782400ll << QByteArray("Tue, 29 Feb 2000 00:00:00 GMT");
    QTest::newRow("end of 1999") << 946684799ll << QByteArray("Fri, 31 Dec 1999 23:59:59 GMT");
    QTest::newRow("2^31 - 1") << 2147483647ll << QByteArray("Tue, 19 Jan 2038 03:14:07 GMT");
    QTest::newRow("after 2038") << 4102444800ll << QByteArray("Fri, 01 Jan 2100 00:00:00 GMT");
}

void TestResponseWriter::formatHttpDate()
{
    QFETCH(qlonglong, time);
    QFETCH(QByteArray, expected);
    QCOMPARE(bytes(servelab::http::formatHttpDate(std::time_t(time))), expected);
}

void TestResponseWriter::dateCacheIsCurrent()
{
    DateCache cache;
    const std::time_t before = std::time(nullptr);
    const QByteArray text = bytes(std::string(cache.now()));
    const std::time_t after = std::time(nullptr);
    QVERIFY(text == bytes(servelab::http::formatHttpDate(before)) ||
            text == bytes(servelab::http::formatHttpDate(after)));
}

QTEST_GUILESS_MAIN(TestResponseWriter)
#include "tst_responsewriter.moc"
