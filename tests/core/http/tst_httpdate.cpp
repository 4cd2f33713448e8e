// SPDX-License-Identifier: Apache-2.0
#include "http/httpdate.h"

#include <QTest>
#include <QThread>

#include <ctime>
#include <string_view>

using servelab::http::DateCache;
using servelab::http::formatHttpDate;
using servelab::http::parseHttpDate;

namespace {

QByteArray bytes(std::string_view s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

std::string_view view(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), bytes.size());
}

} // namespace

class TestHttpDate : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void invalid_data();
    void invalid();
    void cacheIsNow();
    void cacheFollowsTheClock();
};

void TestHttpDate::roundTrip_data()
{
    QTest::addColumn<qint64>("time");
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("epoch") << qint64(0) << QByteArray("Thu, 01 Jan 1970 00:00:00 GMT");
    QTest::newRow("RFC 9110 example")
        << qint64(784111777) << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT");
    QTest::newRow("end of a century")
        << qint64(946684799) << QByteArray("Fri, 31 Dec 1999 23:59:59 GMT");
    QTest::newRow("leap day 2000")
        << qint64(951782400) << QByteArray("Tue, 29 Feb 2000 00:00:00 GMT");
    QTest::newRow("leap day 2024")
        << qint64(1709210096) << QByteArray("Thu, 29 Feb 2024 12:34:56 GMT");
    QTest::newRow("two billion") << qint64(2000000000)
                                 << QByteArray("Wed, 18 May 2033 03:33:20 GMT");
    QTest::newRow("last 32-bit second")
        << qint64(2147483647) << QByteArray("Tue, 19 Jan 2038 03:14:07 GMT");
    QTest::newRow("past 32 bits") << qint64(2147483648)
                                  << QByteArray("Tue, 19 Jan 2038 03:14:08 GMT");
}

void TestHttpDate::roundTrip()
{
    QFETCH(qint64, time);
    QFETCH(QByteArray, text);

    QCOMPARE(bytes(formatHttpDate(std::time_t(time))), text);
    QCOMPARE(qint64(parseHttpDate(view(text))), time);
    QCOMPARE(qint64(parseHttpDate(formatHttpDate(std::time_t(time)))), time);
}

void TestHttpDate::invalid_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("empty") << QByteArray();
    QTest::newRow("one-digit day") << QByteArray("Sun, 6 Nov 1994 08:49:37 GMT");
    QTest::newRow("space-padded day") << QByteArray("Sun,  6 Nov 1994 08:49:37 GMT");
    QTest::newRow("trailing space") << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT ");
    QTest::newRow("leading space") << QByteArray(" Sun, 06 Nov 1994 08:49:37 GMT");
    QTest::newRow("bad day name") << QByteArray("Sux, 06 Nov 1994 08:49:37 GMT");
    QTest::newRow("lower-case day name") << QByteArray("sun, 06 Nov 1994 08:49:37 GMT");
    QTest::newRow("bad month") << QByteArray("Sun, 06 Nox 1994 08:49:37 GMT");
    QTest::newRow("lower-case month") << QByteArray("Sun, 06 nov 1994 08:49:37 GMT");
    QTest::newRow("GMT missing") << QByteArray("Sun, 06 Nov 1994 08:49:37");
    QTest::newRow("UTC instead of GMT") << QByteArray("Sun, 06 Nov 1994 08:49:37 UTC");
    QTest::newRow("lower-case gmt") << QByteArray("Sun, 06 Nov 1994 08:49:37 gmt");
    QTest::newRow("comma missing") << QByteArray("Sun  06 Nov 1994 08:49:37 GMT");
    QTest::newRow("dashes for spaces") << QByteArray("Sun, 06-Nov-1994 08:49:37 GMT");
    QTest::newRow("dots for colons") << QByteArray("Sun, 06 Nov 1994 08.49.37 GMT");
    QTest::newRow("day 00") << QByteArray("Sun, 00 Nov 1994 08:49:37 GMT");
    QTest::newRow("day 32") << QByteArray("Sun, 32 Nov 1994 08:49:37 GMT");
    QTest::newRow("hour 24") << QByteArray("Sun, 06 Nov 1994 24:00:00 GMT");
    QTest::newRow("minute 60") << QByteArray("Sun, 06 Nov 1994 08:60:37 GMT");
    QTest::newRow("second 61") << QByteArray("Sun, 06 Nov 1994 08:49:61 GMT");
    QTest::newRow("letter in the year") << QByteArray("Sun, 06 Nov 19x4 08:49:37 GMT");
    QTest::newRow("letter in the day") << QByteArray("Sun, 0x Nov 1994 08:49:37 GMT");
    QTest::newRow("sign in the hour") << QByteArray("Sun, 06 Nov 1994 +8:49:37 GMT");
    QTest::newRow("letter in the second") << QByteArray("Sun, 06 Nov 1994 08:49:3x GMT");
    // -1 is the error value, so times before the epoch are refused rather than misread.
    QTest::newRow("before the epoch") << QByteArray("Wed, 31 Dec 1969 23:59:59 GMT");
    QTest::newRow("long before the epoch") << QByteArray("Mon, 01 Jan 1900 00:00:00 GMT");
    QTest::newRow("year 0000") << QByteArray("Sat, 01 Jan 0000 00:00:00 GMT");
    // The obsolete forms of RFC 9110 §5.6.7 are refused by design (see httpdate.h).
    QTest::newRow("RFC 850") << QByteArray("Sunday, 06-Nov-94 08:49:37 GMT");
    QTest::newRow("asctime") << QByteArray("Sun Nov  6 08:49:37 1994");
}

void TestHttpDate::invalid()
{
    QFETCH(QByteArray, text);
    QCOMPARE(qint64(parseHttpDate(view(text))), qint64(-1));
}

void TestHttpDate::cacheIsNow()
{
    DateCache cache;
    const std::time_t before = std::time(nullptr);
    const QByteArray text = bytes(cache.now());
    const std::time_t after = std::time(nullptr);
    QVERIFY2(text == bytes(formatHttpDate(before)) || text == bytes(formatHttpDate(after)),
             text.constData());
}

// The cache formats once a second; it must not keep serving the first second it saw.
void TestHttpDate::cacheFollowsTheClock()
{
    DateCache cache;
    const QByteArray first = bytes(cache.now());
    const std::time_t start = std::time(nullptr);
    for (int i = 0; i < 60 && std::time(nullptr) == start; ++i)
        QThread::msleep(50);
    QVERIFY(std::time(nullptr) != start);

    const std::time_t before = std::time(nullptr);
    const QByteArray second = bytes(cache.now());
    const std::time_t after = std::time(nullptr);
    QVERIFY(second != first);
    QVERIFY2(second == bytes(formatHttpDate(before)) || second == bytes(formatHttpDate(after)),
             second.constData());
}

QTEST_GUILESS_MAIN(TestHttpDate)
#include "tst_httpdate.moc"
