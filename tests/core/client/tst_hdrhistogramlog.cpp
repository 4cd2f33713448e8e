// SPDX-License-Identifier: Apache-2.0
#include "childprocess.h"
#include "client/hdrhistogramlog.h"
#include "client/latencyhistogram.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <map>
#include <random>

using servelab::client::HdrHistogramLog;
using servelab::client::LatencyHistogram;

namespace {

std::uint64_t bigEndian(const QByteArray &bytes, int at, int length)
{
    std::uint64_t value = 0;
    for (int i = 0; i < length; ++i)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

// Reads the encoding back the way the format describes it (independently of the writer's code
// paths): the compressed envelope, the header, then the words into bucket counts.
struct Decoded
{
    std::uint32_t cookie = 0;
    int significantDigits = 0;
    std::int64_t lowest = 0;
    std::int64_t highest = 0;
    double ratio = 0;
    std::map<int, std::uint64_t> counts; // bucket -> count, non-zero only
};

bool decode(const std::string &base64, Decoded *out)
{
    const QByteArray envelope = QByteArray::fromBase64(QByteArray::fromStdString(base64));
    if (envelope.size() < 8 || bigEndian(envelope, 0, 4) != 0x1c849314u)
        return false;
    const auto length = static_cast<int>(bigEndian(envelope, 4, 4));
    if (envelope.size() != 8 + length)
        return false;
    QByteArray sized; // qUncompress wants the expected size in front of the zlib stream
    sized.append(char(0)).append(char(0x10)).append(char(0)).append(char(0));
    const QByteArray plain = qUncompress(sized + envelope.mid(8));
    if (plain.size() < 40)
        return false;
    out->cookie = static_cast<std::uint32_t>(bigEndian(plain, 0, 4));
    const auto payload = static_cast<int>(bigEndian(plain, 4, 4));
    out->significantDigits = static_cast<int>(bigEndian(plain, 12, 4));
    out->lowest = static_cast<std::int64_t>(bigEndian(plain, 16, 8));
    out->highest = static_cast<std::int64_t>(bigEndian(plain, 24, 8));
    out->ratio = std::bit_cast<double>(bigEndian(plain, 32, 8));
    if (plain.size() != 40 + payload)
        return false;
    int index = 0;
    for (int at = 40; at < plain.size();) {
        std::uint64_t u = 0;
        for (int shift = 0;; shift += 7) {
            const auto byte = static_cast<unsigned char>(plain[at++]);
            if (shift == 56) {
                u |= std::uint64_t(byte) << 56;
                break;
            }
            u |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                break;
        }
        const auto word = static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
        if (word < 0)
            index += static_cast<int>(-word);
        else if (word == 0)
            ++index;
        else
            out->counts[index++] = static_cast<std::uint64_t>(word);
    }
    return true;
}

LatencyHistogram sample(unsigned seed, int count)
{
    std::mt19937_64 random(seed);
    std::lognormal_distribution<double> latency(6.0, 1.5); // ~400 µs, a long tail
    LatencyHistogram h;
    for (int i = 0; i < count; ++i)
        h.record(static_cast<std::int64_t>(latency(random)));
    return h;
}

} // namespace

class TestHdrHistogramLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void encodingCarriesEveryBucket()
    {
        LatencyHistogram h = sample(7, 20000);
        h.record(0);
        h.record(LatencyHistogram::maxTrackable); // the last bucket, a long run of zeros before
        for (int i = 0; i < 300; ++i)
            h.record(1000); // a count above 127 takes two LEB128 bytes
        Decoded d;
        QVERIFY(decode(HdrHistogramLog::encode(h), &d));
        QCOMPARE(d.cookie, 0x1c849313u);
        QCOMPARE(d.significantDigits, 2);
        QCOMPARE(d.lowest, 1);
        QCOMPARE(d.highest, LatencyHistogram::maxTrackable);
        QCOMPARE(d.ratio, 1.0);
        std::uint64_t total = 0;
        for (int b = 0; b < LatencyHistogram::bucketCount(); ++b) {
            const auto it = d.counts.find(b);
            QCOMPARE(it == d.counts.end() ? 0u : it->second, h.countInBucket(b));
            total += h.countInBucket(b);
        }
        QCOMPARE(total, h.count());
    }

    // Our own reading back (the results database keeps histograms this way).
    void decodeReadsBackEveryBucket()
    {
        const LatencyHistogram h = sample(11, 5000);
        const auto back = HdrHistogramLog::decode(HdrHistogramLog::encode(h));
        QVERIFY(back.has_value());
        QCOMPARE(back->count(), h.count());
        for (int b = 0; b < LatencyHistogram::bucketCount(); ++b)
            QCOMPARE(back->countInBucket(b), h.countInBucket(b));
        QCOMPARE(
            back->valueAtPercentile(99),
            LatencyHistogram::bucketHighest(LatencyHistogram::bucketOf(h.valueAtPercentile(99))));
        QVERIFY(!HdrHistogramLog::decode("not base64 at all!"));
        QVERIFY(!HdrHistogramLog::decode("SElTVEZBQUFB"));
        QVERIFY(HdrHistogramLog::decode(HdrHistogramLog::encode(LatencyHistogram()))->count() == 0);
    }

    void emptyHistogramEncodesNoCounts()
    {
        Decoded d;
        QVERIFY(decode(HdrHistogramLog::encode(LatencyHistogram()), &d));
        QVERIFY(d.counts.empty());
    }

    // HdrHistogram's own HistogramLogProcessor (Debian's libhdrhistogram-java) reads the log and
    // finds the same count, maximum and percentiles.
    void hdrHistogramReadsTheLog()
    {
        const QString java = QStandardPaths::findExecutable(QStringLiteral("java"));
        const QString jar = QStringLiteral("/usr/share/java/hdrhistogram.jar");
        if (java.isEmpty() || !QFile::exists(jar))
            QSKIP("java or /usr/share/java/hdrhistogram.jar missing (packages default-jre-headless "
                  "and libhdrhistogram-java); packaging/test.sh installs them on the host leg");
        HdrHistogramLog log(1'700'000'000.25);
        LatencyHistogram total;
        for (unsigned i = 0; i < 3; ++i) {
            const LatencyHistogram h = sample(i, 5000 + 1000 * int(i));
            log.add(0.1 * i, 0.1, h);
            total.merge(h);
        }
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("run.hlog")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(log.text()));
        file.close();

        ChildProcess processor;
        processor.start(java, {QStringLiteral("-cp"), jar,
                               QStringLiteral("org.HdrHistogram.HistogramLogProcessor"),
                               QStringLiteral("-i"), file.fileName(), QStringLiteral("-o"),
                               dir.filePath(QStringLiteral("out")),
                               QStringLiteral("-outputValueUnitRatio"), QStringLiteral("1")});
        QVERIFY(processor.waitForFinished(60000));
        QVERIFY2(processor.exitCode() == 0, processor.readAllStandardError().constData());
        QFile hgrm(dir.filePath(QStringLiteral("out.hgrm")));
        QVERIFY(hgrm.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(hgrm.readAll());

        const auto footer =
            QRegularExpression(
                QStringLiteral(R"(#\[Max\s*=\s*([\d.]+),\s*Total count\s*=\s*(\d+)\])"))
                .match(text);
        QVERIFY2(footer.hasMatch(), qPrintable(text.right(400)));
        QCOMPARE(footer.captured(2).toULongLong(), total.count());
        QCOMPARE(qint64(footer.captured(1).toDouble()),
                 LatencyHistogram::bucketHighest(LatencyHistogram::bucketOf(total.max())));
        // The interval summary's last line: the totals' 50, 90, 99, 99.9 and 99.99th percentiles
        // and max, which LatencyHistogram reports alike (the top of the value's bucket).
        QFile summary(dir.filePath(QStringLiteral("out")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(summary.readAll()).trimmed().split(u'\n');
        const auto last =
            QRegularExpression(QStringLiteral(R"(T:(\d+) \(\s*([\d.\s]+)\))")).match(lines.last());
        QVERIFY2(last.hasMatch(), qPrintable(lines.last()));
        QCOMPARE(last.captured(1).toULongLong(), total.count());
        const QStringList values = last.captured(2).split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(values.size(), 6);
        const double percentiles[] = {50, 90, 99, 99.9};
        for (int i = 0; i < 4; ++i) {
            const auto ours = total.valueAtPercentile(percentiles[i]);
            QCOMPARE(qint64(values[i].toDouble()),
                     LatencyHistogram::bucketHighest(LatencyHistogram::bucketOf(ours)));
        }
    }
};

QTEST_GUILESS_MAIN(TestHdrHistogramLog)
#include "tst_hdrhistogramlog.moc"
