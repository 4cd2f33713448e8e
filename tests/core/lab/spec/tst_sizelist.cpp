// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/sizelist.h"

#include <QTest>

using namespace servelab::lab;

namespace {

constexpr quint64 K = 1024;
constexpr quint64 M = K * K;
constexpr quint64 G = K * M;

} // namespace

class TestSizeList : public QObject
{
    Q_OBJECT

private slots:
    void parseSize_data();
    void parseSize();
    void parseSizeErrorNamesElement_data();
    void parseSizeErrorNamesElement();
    void parseSizeList_data();
    void parseSizeList();
    void parseSizeListError_data();
    void parseSizeListError();
    void formatSize_data();
    void formatSize();
    void formatRoundTrips();
};

void TestSizeList::parseSize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<quint64>("bytes");

    QTest::newRow("4K") << "4K" << true << 4 * K;
    QTest::newRow("4k") << "4k" << true << 4 * K;
    QTest::newRow("4KiB") << "4KiB" << true << 4 * K;
    QTest::newRow("4KB") << "4KB" << true << 4 * K;
    QTest::newRow("1M") << "1M" << true << M;
    QTest::newRow("1m") << "1m" << true << M;
    QTest::newRow("1MiB") << "1MiB" << true << M;
    QTest::newRow("2G") << "2G" << true << 2 * G;
    QTest::newRow("64G is the largest") << "64G" << true << 64 * G;
    QTest::newRow("4096") << "4096" << true << quint64(4096);
    QTest::newRow("1536") << "1536" << true << quint64(1536);
    QTest::newRow("1 byte") << "1" << true << quint64(1);
    QTest::newRow("bytes with B") << "100B" << true << quint64(100);
    QTest::newRow("surrounding spaces") << "  8K  " << true << 8 * K;
    QTest::newRow("space before unit") << "8 K" << true << 8 * K;
    QTest::newRow("all of 64G in bytes") << "68719476736" << true << 64 * G;

    QTest::newRow("0") << "0" << false << quint64(0);
    QTest::newRow("0K") << "0K" << false << quint64(0);
    QTest::newRow("abc") << "abc" << false << quint64(0);
    QTest::newRow("empty") << "" << false << quint64(0);
    QTest::newRow("65G") << "65G" << false << quint64(0);
    QTest::newRow("65537M") << "65537M" << false << quint64(0);
    QTest::newRow("one byte over 64G") << "68719476737" << false << quint64(0);
    QTest::newRow("overflow") << "99999999999999999999" << false << quint64(0);
    QTest::newRow("huge with unit") << "18014398509481984K" << false << quint64(0);
    QTest::newRow("negative") << "-4K" << false << quint64(0);
    QTest::newRow("fraction") << "1.5M" << false << quint64(0);
    QTest::newRow("terabytes") << "1T" << false << quint64(0);
    QTest::newRow("unit only") << "K" << false << quint64(0);
    QTest::newRow("two units") << "4KM" << false << quint64(0);
    QTest::newRow("trailing garbage") << "4Kx" << false << quint64(0);
}

void TestSizeList::parseSize()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(quint64, bytes);

    quint64 parsed = 12345;
    QString error;
    QCOMPARE(servelab::lab::parseSize(text, &parsed, &error), ok);
    if (ok) {
        QCOMPARE(parsed, bytes);
        QVERIFY(error.isEmpty());
    } else {
        QCOMPARE(parsed, quint64(12345)); // untouched on failure
        QVERIFY(!error.isEmpty());
    }
}

void TestSizeList::parseSizeErrorNamesElement_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("named");

    QTest::newRow("abc") << "abc"
                         << "'abc'";
    QTest::newRow("0") << "0"
                       << "'0'";
    QTest::newRow("65G") << "65G"
                         << "'65G'";
    QTest::newRow("spaces trimmed") << "  1.5M "
                                    << "'1.5M'";
}

void TestSizeList::parseSizeErrorNamesElement()
{
    QFETCH(QString, text);
    QFETCH(QString, named);

    quint64 bytes = 0;
    QString error;
    QVERIFY(!servelab::lab::parseSize(text, &bytes, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
    QVERIFY(!servelab::lab::parseSize(text, &bytes, nullptr));
}

void TestSizeList::parseSizeList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<quint64>>("sizes");

    QList<quint64> doubling;
    for (quint64 size = 4 * K; size <= 32 * M; size *= 2)
        doubling.append(size);
    QCOMPARE(doubling.size(), 14);

    QTest::newRow("one") << "4K" << QList<quint64>{4 * K};
    QTest::newRow("several") << "4K,64K,1M" << QList<quint64>{4 * K, 64 * K, M};
    QTest::newRow("spaces") << " 4K , 64K ,1M " << QList<quint64>{4 * K, 64 * K, M};
    QTest::newRow("sorted") << "1M,4K,64K" << QList<quint64>{4 * K, 64 * K, M};
    QTest::newRow("duplicates removed") << "4K,4096,4k,1M,4K" << QList<quint64>{4 * K, M};
    QTest::newRow("empty elements skipped") << "4K,,1M," << QList<quint64>{4 * K, M};
    QTest::newRow("range 4K..32M") << "4K..32M" << doubling;
    QTest::newRow("range with spaces") << "4K .. 32M" << doubling;
    QTest::newRow("range of one") << "8K..8K" << QList<quint64>{8 * K};
    QTest::newRow("range not a power of two") << "3K..13K" << QList<quint64>{3 * K, 6 * K, 12 * K};
    QTest::newRow("range and elements merged")
        << "1M,4K..16K,8K,1536" << QList<quint64>{1536, 4 * K, 8 * K, 16 * K, M};
    QTest::newRow("range up to 64G") << "16G..64G" << QList<quint64>{16 * G, 32 * G, 64 * G};
}

void TestSizeList::parseSizeList()
{
    QFETCH(QString, text);
    QFETCH(QList<quint64>, sizes);

    QList<quint64> parsed{999};
    QString error;
    QVERIFY2(servelab::lab::parseSizeList(text, &parsed, &error), qPrintable(error));
    QCOMPARE(parsed, sizes);
}

void TestSizeList::parseSizeListError_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("named"); // what the message must mention

    QTest::newRow("empty") << ""
                           << "no file sizes";
    QTest::newRow("only commas") << ",,"
                                 << "no file sizes";
    QTest::newRow("bad element named") << "4K,abc,1M"
                                       << "'abc'";
    QTest::newRow("zero element") << "4K,0"
                                  << "'0'";
    QTest::newRow("too large element") << "1M,65G"
                                       << "'65G'";
    QTest::newRow("range runs backwards") << "32M..4K"
                                          << "'32M..4K'";
    QTest::newRow("bad range start") << "x..4K"
                                     << "'x'";
    QTest::newRow("bad range end") << "4K..y"
                                   << "'y'";
    QTest::newRow("range past 64G") << "4K..65G"
                                    << "'65G'";
    QTest::newRow("open range") << "4K.."
                                << "''";
    QTest::newRow("three-part range") << "4K..8K..16K"
                                      << "'4K..8K..16K'";
}

void TestSizeList::parseSizeListError()
{
    QFETCH(QString, text);
    QFETCH(QString, named);

    const QList<quint64> before{999};
    QList<quint64> parsed = before;
    QString error;
    QVERIFY(!servelab::lab::parseSizeList(text, &parsed, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
    QCOMPARE(parsed, before); // untouched on failure
    QVERIFY(!servelab::lab::parseSizeList(text, &parsed, nullptr));
}

void TestSizeList::formatSize_data()
{
    QTest::addColumn<quint64>("bytes");
    QTest::addColumn<QString>("text");

    QTest::newRow("4096") << quint64(4096) << "4K";
    QTest::newRow("1536") << quint64(1536) << "1536";
    QTest::newRow("1 MiB") << (quint64(1) << 20) << "1M";
    QTest::newRow("1") << quint64(1) << "1";
    QTest::newRow("0") << quint64(0) << "0";
    QTest::newRow("1023") << quint64(1023) << "1023";
    QTest::newRow("1024") << quint64(1024) << "1K";
    QTest::newRow("1.5 MiB") << 3 * M / 2 << "1536K";
    QTest::newRow("2 GiB") << 2 * G << "2G";
    QTest::newRow("1 GiB + 1 KiB") << G + K << "1048577K";
    QTest::newRow("64 GiB") << 64 * G << "64G";
    QTest::newRow("1 TiB") << 1024 * G << "1024G";
}

void TestSizeList::formatSize()
{
    QFETCH(quint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(servelab::lab::formatSize(bytes), text);
}

void TestSizeList::formatRoundTrips()
{
    QList<quint64> sizes;
    QString error;
    QVERIFY2(servelab::lab::parseSizeList(QStringLiteral("1536,4K..32M,3G"), &sizes, &error),
             qPrintable(error));
    const QString text = servelab::lab::formatSizeList(sizes);
    // Runs of three or more doublings come back as ranges; shorter runs stay a list.
    QCOMPARE(text, QStringLiteral("1536,4K..32M,3G"));
    QCOMPARE(servelab::lab::formatSizeList({4096, 8192, 65536}), QStringLiteral("4K,8K,64K"));
    QCOMPARE(servelab::lab::formatSizeList({4096, 8192, 16384}), QStringLiteral("4K..16K"));
    QList<quint64> again;
    QVERIFY2(servelab::lab::parseSizeList(text, &again, &error), qPrintable(error));
    QCOMPARE(again, sizes);
}

QTEST_GUILESS_MAIN(TestSizeList)
#include "tst_sizelist.moc"
