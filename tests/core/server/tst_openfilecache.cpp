// SPDX-License-Identifier: Apache-2.0
#include "http/documentroot.h"
#include "server/openfilecache.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace servelab;

namespace {

int countOpenFds()
{
    return static_cast<int>(QDir(QStringLiteral("/proc/self/fd"))
                                .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                                .size());
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

QByteArray readAt(int fd, qsizetype size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    return pread(fd, bytes.data(), size, 0) == size ? bytes : QByteArray();
}

} // namespace

class TestOpenFileCache : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    http::DocumentRoot m_root;

private Q_SLOTS:
    // Every test twice: shared by threads (one mutex) and one thread's (no lock).
    void initTestCase_data()
    {
        QTest::addColumn<bool>("shared");
        QTest::newRow("shared") << true;
        QTest::newRow("one thread's") << false;
    }
    void initTestCase()
    {
        std::string error;
        QVERIFY2(m_root.open(m_dir.path().toStdString(), &error), error.c_str());
        for (const char *name : {"a.txt", "b.txt", "c.txt"})
            writeFile(m_dir.filePath(QString::fromLatin1(name)), QByteArray(name));
    }

    void hitsShareOneFd()
    {
        QFETCH_GLOBAL(bool, shared);
        server::OpenFileCache cache(m_root, 8, 1000, shared);
        const int before = countOpenFds();
        auto first = cache.open("a.txt", 0);
        auto second = cache.open("a.txt", 10);
        QCOMPARE(first.status, 200);
        QCOMPARE(second.fd, first.fd);
        QCOMPARE(cache.hits(), 1u);
        QCOMPARE(cache.misses(), 1u);
        QCOMPARE(countOpenFds(), before + 1); // held open on purpose, once
        QCOMPARE(readAt(second.fd, 5), QByteArray("a.txt"));
    }

    void errorsAreNotCached()
    {
        QFETCH_GLOBAL(bool, shared);
        server::OpenFileCache cache(m_root, 8, 60000, shared);
        QFile::remove(m_dir.filePath(QStringLiteral("late.txt"))); // from the other row
        QCOMPARE(cache.open("late.txt", 0).status, 404);
        writeFile(m_dir.filePath(QStringLiteral("late.txt")), "late");
        QCOMPARE(cache.open("late.txt", 1).status, 200);
        QCOMPARE(cache.size(), 1u);
    }

    void revalidatesAfterTheValidity()
    {
        QFETCH_GLOBAL(bool, shared);
        server::OpenFileCache cache(m_root, 8, 1000, shared);
        writeFile(m_dir.filePath(QStringLiteral("r.txt")), "old");
        auto old = cache.open("r.txt", 0);
        // Replace the file by rename, as deployments do: a new inode at the same path.
        writeFile(m_dir.filePath(QStringLiteral("r.tmp")), "newer");
        QVERIFY(::rename(qPrintable(m_dir.filePath(QStringLiteral("r.tmp"))),
                         qPrintable(m_dir.filePath(QStringLiteral("r.txt")))) == 0);
        auto stale = cache.open("r.txt", 999);
        QCOMPARE(stale.size, 3u); // still trusted within the validity
        auto fresh = cache.open("r.txt", 1000);
        QCOMPARE(fresh.size, 5u);
        QCOMPARE(readAt(fresh.fd, 5), QByteArray("newer"));
        // The response that still uses the old entry keeps a readable fd.
        QCOMPARE(readAt(old.fd, 3), QByteArray("old"));
    }

    void evictionNeverClosesAFileInUse()
    {
        const int before = countOpenFds();
        {
            QFETCH_GLOBAL(bool, shared);
        server::OpenFileCache cache(m_root, 2, 60000, shared);
            auto a = cache.open("a.txt", 0);
            cache.open("b.txt", 0);
            cache.open("c.txt", 0); // evicts a.txt, the least recently used
            QCOMPARE(cache.size(), 2u);
            QCOMPARE(readAt(a.fd, 5), QByteArray("a.txt")); // still open for its response
            a = http::OpenedFile{};
            QCOMPARE(countOpenFds(), before + 2); // a.txt closed once its last user let go
            cache.open("a.txt", 1);
            QCOMPARE(cache.misses(), 4u);
        }
        QCOMPARE(countOpenFds(), before);
    }
};

QTEST_GUILESS_MAIN(TestOpenFileCache)
#include "tst_openfilecache.moc"
