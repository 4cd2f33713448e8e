// SPDX-License-Identifier: Apache-2.0
#include "http/byterange.h"

#include <QTest>

#include <string_view>

using servelab::http::ByteRange;

namespace {

void partial(const char *name, const QByteArray &header, quint64 size, quint64 first, quint64 last)
{
    QTest::newRow(name) << header << size << int(ByteRange::Partial) << first << last;
}

void whole(const char *name, const QByteArray &header, quint64 size)
{
    QTest::newRow(name) << header << size << int(ByteRange::Whole) << quint64(0) << quint64(0);
}

void unsatisfiable(const char *name, const QByteArray &header, quint64 size)
{
    QTest::newRow(name) << header << size << int(ByteRange::Unsatisfiable) << quint64(0)
                        << quint64(0);
}

ByteRange resolve(const QByteArray &header, quint64 size)
{
    return servelab::http::resolveByteRange(std::string_view(header.constData(), header.size()),
                                            size);
}

} // namespace

class TestByteRange : public QObject
{
    Q_OBJECT

private slots:
    void resolveByteRange_data();
    void resolveByteRange();
    void length_data();
    void length();
};

void TestByteRange::resolveByteRange_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<quint64>("size");
    QTest::addColumn<int>("kind");
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");

    // first-pos "-" last-pos (RFC 9110 §14.1.2)
    partial("first byte", "bytes=0-0", 1000, 0, 0);
    partial("first hundred", "bytes=0-99", 1000, 0, 99);
    partial("single middle byte", "bytes=5-5", 1000, 5, 5);
    partial("exactly the whole file", "bytes=0-999", 1000, 0, 999);
    partial("open end", "bytes=500-", 1000, 500, 999);
    partial("open end from zero", "bytes=0-", 1000, 0, 999);
    partial("open end at the last byte", "bytes=999-", 1000, 999, 999);
    partial("open end on a one-byte file", "bytes=0-", 1, 0, 0);
    partial("last-pos past the end is clamped", "bytes=999-5000", 1000, 999, 999);
    partial("last-pos far past the end", "bytes=10-9223372036854775807", 1000, 10, 999);

    // suffix-range "-" suffix-length: the last N bytes
    partial("suffix", "bytes=-100", 1000, 900, 999);
    partial("suffix of one byte", "bytes=-1", 1000, 999, 999);
    partial("suffix as long as the file", "bytes=-1000", 1000, 0, 999);
    partial("suffix longer than the file is the whole file", "bytes=-2000", 1000, 0, 999);
    unsatisfiable("suffix of zero", "bytes=-0", 1000);
    unsatisfiable("suffix on an empty file", "bytes=-1", 0);

    // first-pos at or past the end
    unsatisfiable("first-pos at the size", "bytes=1000-", 1000);
    unsatisfiable("closed range past the end", "bytes=1000-2000", 1000);
    unsatisfiable("first-pos at the size of a one-byte file", "bytes=1-", 1);
    unsatisfiable("empty file", "bytes=0-", 0);
    unsatisfiable("empty file, closed range", "bytes=0-0", 0);

    // Unit and whitespace
    partial("unit is case-insensitive", "BYTES=0-1", 1000, 0, 1);
    partial("mixed-case unit", "Bytes=0-1", 1000, 0, 1);
    partial("space before the range", "bytes= 0-1", 1000, 0, 1);
    partial("tab around the range", "bytes=\t0-1\t", 1000, 0, 1);

    // Ignored headers: RFC 9110 §14.2 lets a server answer 200 instead.
    whole("last-pos before first-pos", "bytes=5-4", 1000);
    whole("multiple ranges", "bytes=0-1,5-6", 1000);
    whole("multiple ranges with a space", "bytes=0-1, 5-6", 1000);
    whole("trailing comma", "bytes=0-1,", 1000);
    whole("other unit", "items=0-1", 1000);
    whole("unit without =", "bytes 0-1", 1000);
    whole("space before =", "bytes =0-1", 1000);
    whole("empty range set", "bytes=", 1000);
    whole("empty header", "", 1000);
    whole("dash only", "bytes=-", 1000);
    whole("no dash", "bytes=5", 1000);
    whole("letters", "bytes=a-b", 1000);
    whole("letter in last-pos", "bytes=0-1x", 1000);
    whole("negative first-pos", "bytes=--1", 1000);
    whole("plus sign", "bytes=+1-2", 1000);
    whole("space inside the range", "bytes=0 -1", 1000);
    whole("last-pos overflows", "bytes=0-99999999999999999999", 1000);
    whole("first-pos overflows", "bytes=99999999999999999999-", 1000);
    whole("suffix overflows", "bytes=-99999999999999999999", 1000);
    whole("invalid on an empty file too", "bytes=5-4", 0);
}

void TestByteRange::resolveByteRange()
{
    QFETCH(QByteArray, header);
    QFETCH(quint64, size);
    QFETCH(int, kind);
    QFETCH(quint64, first);
    QFETCH(quint64, last);

    const ByteRange range = resolve(header, size);
    QCOMPARE(int(range.kind), kind);
    if (kind == ByteRange::Partial) {
        QCOMPARE(quint64(range.first), first);
        QCOMPARE(quint64(range.last), last);
        QVERIFY(range.last < size);
    }
}

void TestByteRange::length_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<quint64>("size");
    QTest::addColumn<quint64>("length");

    QTest::newRow("one byte") << QByteArray("bytes=0-0") << quint64(1000) << quint64(1);
    QTest::newRow("hundred bytes") << QByteArray("bytes=0-99") << quint64(1000) << quint64(100);
    QTest::newRow("open end") << QByteArray("bytes=500-") << quint64(1000) << quint64(500);
    QTest::newRow("suffix") << QByteArray("bytes=-100") << quint64(1000) << quint64(100);
    QTest::newRow("long suffix") << QByteArray("bytes=-2000") << quint64(1000) << quint64(1000);
    QTest::newRow("clamped") << QByteArray("bytes=999-5000") << quint64(1000) << quint64(1);
    QTest::newRow("past 4 GiB") << QByteArray("bytes=0-") << quint64(5'000'000'000)
                                << quint64(5'000'000'000);
}

void TestByteRange::length()
{
    QFETCH(QByteArray, header);
    QFETCH(quint64, size);
    QFETCH(quint64, length);

    const ByteRange range = resolve(header, size);
    QCOMPARE(int(range.kind), int(ByteRange::Partial));
    QCOMPARE(quint64(range.length()), length);
}

QTEST_GUILESS_MAIN(TestByteRange)
#include "tst_byterange.moc"
