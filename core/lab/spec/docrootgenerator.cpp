// SPDX-License-Identifier: Apache-2.0
#include "docrootgenerator.h"

#include "sizelist.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cstring>

namespace servelab::lab {

namespace {

// xorshift64* (Vigna): fast and good enough to defeat compression; no cryptographic intent.
class ContentStream
{
public:
    ContentStream(quint64 size, DocRootGenerator::Content content, int copy)
        : m_state((size ^ (quint64(copy) << 56)) * 0x9E3779B97F4A7C15ull | 1),
          m_zeros(content == DocRootGenerator::Content::Zeros)
    {}
    void fill(char *out, qsizetype length)
    {
        if (m_zeros) {
            std::memset(out, 0, static_cast<size_t>(length));
            return;
        }
        for (qsizetype i = 0; i < length; i += 8) {
            m_state ^= m_state >> 12;
            m_state ^= m_state << 25;
            m_state ^= m_state >> 27;
            const quint64 word = m_state * 0x2545F4914F6CDD1Dull;
            const qsizetype n = std::min<qsizetype>(8, length - i);
            std::memcpy(out + i, &word, static_cast<size_t>(n));
        }
    }

private:
    quint64 m_state;
    bool m_zeros;
};

constexpr qsizetype prefixChecked = 4096;

// The file is there with its size and starts as it should.
bool upToDate(const QString &path, quint64 size, DocRootGenerator::Content content, int copy)
{
    const QFileInfo info(path);
    if (!info.isFile() || quint64(info.size()) != size)
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const qsizetype n = qsizetype(std::min<quint64>(size, prefixChecked));
    QByteArray expected(n, Qt::Uninitialized);
    ContentStream(size, content, copy).fill(expected.data(), n);
    return file.read(n) == expected;
}

} // namespace

QString DocRootGenerator::fileNameFor(quint64 size, int copy)
{
    return formatSize(size) + (copy > 0 ? QStringLiteral("-%1").arg(copy) : QString()) +
           QStringLiteral(".bin");
}

QString DocRootGenerator::contentName(Content content)
{
    return content == Content::Zeros ? QStringLiteral("zeros") : QStringLiteral("random");
}

bool DocRootGenerator::parseContent(const QString &name, Content *content)
{
    if (name == u"random")
        *content = Content::Random;
    else if (name == u"zeros")
        *content = Content::Zeros;
    else
        return false;
    return true;
}

QByteArray DocRootGenerator::contentFor(quint64 size, Content content, int copy)
{
    QByteArray bytes(static_cast<qsizetype>(size), Qt::Uninitialized);
    ContentStream(size, content, copy).fill(bytes.data(), bytes.size());
    return bytes;
}

bool DocRootGenerator::check(const QString &dir, const QList<quint64> &sizes, QString *error,
                             int copies)
{
    for (quint64 size : sizes) {
        for (int copy = 0; copy < copies; ++copy) {
            const QString path = QDir(dir).filePath(fileNameFor(size, copy));
            const QFileInfo info(path);
            if (info.isFile() && info.isReadable() && quint64(info.size()) == size)
                continue;
            if (error)
                *error =
                    QStringLiteral("%1 %2: put a readable file of %3 bytes there, or let "
                                   "ServeLab generate the folder")
                        .arg(path, info.exists() ? QStringLiteral("is not a readable file of the "
                                                                  "right size")
                                                 : QStringLiteral("is missing"))
                        .arg(size);
            return false;
        }
    }
    return true;
}

bool DocRootGenerator::ensure(const QString &dir, const QList<quint64> &sizes, QString *error,
                              Content content, int copies)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("cannot create the document root %1").arg(dir);
        return false;
    }
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (quint64 size : sizes) {
        for (int copy = 0; copy < copies; ++copy) {
            const QString path = QDir(dir).filePath(fileNameFor(size, copy));
            if (upToDate(path, size, content, copy))
                continue;
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) {
                if (error)
                    *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
                return false;
            }
            // Stream in blocks: continuing one generator keeps the bytes equal to contentFor().
            ContentStream stream(size, content, copy);
            for (quint64 written = 0; written < size;) {
                const auto n = static_cast<qsizetype>(
                    std::min<quint64>(size - written, quint64(block.size())));
                stream.fill(block.data(), n);
                if (file.write(block.constData(), n) != n)
                    break;
                written += static_cast<quint64>(n);
            }
            if (!file.commit()) {
                if (error)
                    *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
                return false;
            }
        }
    }
    return true;
}

} // namespace servelab::lab
