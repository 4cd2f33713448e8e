#include "docrootgenerator.h"

#include "sizelist.h"

#include <QDir>
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
    explicit ContentStream(quint64 seed) : m_state(seed * 0x9E3779B97F4A7C15ull | 1) {}
    void fill(char *out, qsizetype length)
    {
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
};

} // namespace

QString DocRootGenerator::fileNameFor(quint64 size)
{
    return formatSize(size) + QStringLiteral(".bin");
}

QByteArray DocRootGenerator::contentFor(quint64 size)
{
    QByteArray bytes(static_cast<qsizetype>(size), Qt::Uninitialized);
    ContentStream(size).fill(bytes.data(), bytes.size());
    return bytes;
}

bool DocRootGenerator::ensure(const QString &dir, const QList<quint64> &sizes, QString *error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("cannot create the document root %1").arg(dir);
        return false;
    }
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (quint64 size : sizes) {
        const QString path = QDir(dir).filePath(fileNameFor(size));
        const QFileInfo info(path);
        if (info.isFile() && quint64(info.size()) == size)
            continue;
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            if (error)
                *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
            return false;
        }
        // Stream in blocks: continuing one generator keeps the bytes equal to contentFor().
        ContentStream stream(size);
        for (quint64 written = 0; written < size;) {
            const auto n =
                static_cast<qsizetype>(std::min<quint64>(size - written, quint64(block.size())));
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
    return true;
}

} // namespace servelab::lab
