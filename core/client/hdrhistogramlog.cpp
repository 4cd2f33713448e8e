// SPDX-License-Identifier: Apache-2.0
#include "hdrhistogramlog.h"

#include "latencyhistogram.h"

#include <QByteArray>
#include <QDateTime>

#include <bit>
#include <cstdio>

namespace servelab::client {

namespace {

// The V2 cookies; the 0x10 bit says the counts are ZigZag LEB128 words.
constexpr std::uint32_t encodingCookie = 0x1c849303 | 0x10;
constexpr std::uint32_t compressedCookie = 0x1c849304 | 0x10;
constexpr int significantDigits = 2; // 128 buckets per power of two, as LatencyHistogram

void putBigEndian(QByteArray &out, std::uint64_t value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.append(static_cast<char>((value >> (8 * i)) & 0xff));
}

// ZigZag, then LEB128 with at most 9 bytes: the ninth byte carries 8 bits, not 7.
void putWord(QByteArray &out, std::int64_t value)
{
    auto u = (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
    for (int i = 0; i < 8; ++i) {
        if (u < 0x80) {
            out.append(static_cast<char>(u));
            return;
        }
        out.append(static_cast<char>((u & 0x7f) | 0x80));
        u >>= 7;
    }
    out.append(static_cast<char>(u & 0xff));
}

std::uint64_t getBigEndian(const QByteArray &bytes, qsizetype at, int length)
{
    std::uint64_t value = 0;
    for (int i = 0; i < length; ++i)
        value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
    return value;
}

} // namespace

std::optional<LatencyHistogram> HdrHistogramLog::decode(std::string_view base64)
{
    const QByteArray envelope =
        QByteArray::fromBase64(QByteArray(base64.data(), qsizetype(base64.size())),
                               QByteArray::AbortOnBase64DecodingErrors);
    if (envelope.size() < 8 || getBigEndian(envelope, 0, 4) != compressedCookie ||
        qsizetype(getBigEndian(envelope, 4, 4)) != envelope.size() - 8)
        return std::nullopt;
    // qUncompress() wants the inflated size in front; a guess it may exceed is fine.
    QByteArray sized;
    putBigEndian(sized, 1u << 20, 4);
    const QByteArray plain = qUncompress(sized + envelope.mid(8));
    if (plain.size() < 40 || getBigEndian(plain, 0, 4) != encodingCookie ||
        qsizetype(getBigEndian(plain, 4, 4)) != plain.size() - 40 ||
        getBigEndian(plain, 8, 4) != 0 || getBigEndian(plain, 12, 4) != significantDigits ||
        getBigEndian(plain, 16, 8) != 1)
        return std::nullopt;
    LatencyHistogram h;
    int bucket = 0;
    for (qsizetype at = 40; at < plain.size();) {
        std::uint64_t u = 0;
        for (int shift = 0;; shift += 7) {
            if (at >= plain.size())
                return std::nullopt;
            const auto byte = static_cast<unsigned char>(plain[at++]);
            if (shift == 56) {
                u |= std::uint64_t(byte) << 56;
                break;
            }
            u |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                break;
        }
        const auto word = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
        if (word < 0) {
            bucket += static_cast<int>(-word);
        } else {
            if (bucket >= LatencyHistogram::bucketCount())
                return std::nullopt;
            h.addToBucket(bucket++, static_cast<std::uint64_t>(word));
        }
    }
    return h;
}

std::string HdrHistogramLog::encode(const LatencyHistogram &h)
{
    // The counts up to the bucket of the largest value; an empty histogram has none.
    const int limit = h.count() ? LatencyHistogram::bucketOf(h.max()) + 1 : 0;
    QByteArray payload;
    for (int i = 0; i < limit;) {
        const std::uint64_t count = h.countInBucket(i++);
        if (count != 0) {
            putWord(payload, static_cast<std::int64_t>(count));
            continue;
        }
        std::int64_t zeros = 1;
        while (i < limit && h.countInBucket(i) == 0) {
            ++zeros;
            ++i;
        }
        putWord(payload, zeros > 1 ? -zeros : 0);
    }
    QByteArray plain;
    putBigEndian(plain, encodingCookie, 4);
    putBigEndian(plain, static_cast<std::uint64_t>(payload.size()), 4);
    putBigEndian(plain, 0, 4); // normalizing index offset
    putBigEndian(plain, significantDigits, 4);
    putBigEndian(plain, 1, 8); // lowest discernible value
    putBigEndian(plain, LatencyHistogram::maxTrackable, 8);
    putBigEndian(plain, std::bit_cast<std::uint64_t>(1.0), 8); // integer to double ratio
    plain += payload;

    // qCompress() is a zlib stream behind a 4-byte length of the input; the format wants the
    // zlib stream alone.
    const QByteArray deflated = qCompress(plain, 9).mid(4);
    QByteArray encoded;
    putBigEndian(encoded, compressedCookie, 4);
    putBigEndian(encoded, static_cast<std::uint64_t>(deflated.size()), 4);
    encoded += deflated;
    return encoded.toBase64().toStdString();
}

HdrHistogramLog::HdrHistogramLog(double startEpochSeconds)
{
    const auto start =
        QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(startEpochSeconds * 1000));
    char line[200];
    std::snprintf(line, sizeof line,
                  "#[Histogram log format version 1.3]\n"
                  "#[StartTime: %.3f (seconds since epoch), %s]\n"
                  "#[Latency in microseconds, Interval_Max in milliseconds; written by ServeLab]\n",
                  startEpochSeconds, qPrintable(start.toString(Qt::ISODateWithMs)));
    m_text = line;
    m_text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
              "\"Interval_Compressed_Histogram\"\n";
}

void HdrHistogramLog::add(double startSeconds, double lengthSeconds, const LatencyHistogram &h,
                          const std::string &tag)
{
    if (!tag.empty())
        m_text += "Tag=" + tag + ',';
    // Interval_Max is the top of the largest value's bucket, as HdrHistogram reports a maximum.
    const double max =
        h.count() ? double(LatencyHistogram::bucketHighest(LatencyHistogram::bucketOf(h.max())))
                  : 0.0;
    char prefix[96];
    std::snprintf(prefix, sizeof prefix, "%.3f,%.3f,%.3f,", startSeconds, lengthSeconds,
                  max / 1000.0);
    m_text += prefix;
    m_text += encode(h);
    m_text += '\n';
}

} // namespace servelab::client
