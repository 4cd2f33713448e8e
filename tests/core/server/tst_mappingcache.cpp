// SPDX-License-Identifier: Apache-2.0
#include "http/documentroot.h"
#include "server/mappingcache.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

QByteArray bytesOf(const std::shared_ptr<const server::FileMapping> &mapping, qsizetype size)
{
    return mapping ? QByteArray(mapping->data(), size) : QByteArray();
}

} // namespace

class TestMappingCache : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    http::DocumentRoot m_root;

    http::OpenedFile open(const char *name)
    {
        http::OpenedFile file = m_root.openFile(name);
        [&] { QCOMPARE(file.status, 200); }();
        return file;
    }

private Q_SLOTS:
    void initTestCase()
    {
        std::string error;
        QVERIFY2(m_root.open(m_dir.path().toStdString(), &error), error.c_str());
        for (const char *name : {"a.txt", "b.txt", "c.txt"})
            writeFile(m_dir.filePath(QString::fromLatin1(name)), QByteArray(name));
    }

    // The same file, opened again (a new fd, as without the open-file cache): the same mapping.
    void aFileServedAgainIsNotMappedAgain()
    {
        server::MappingCache cache;
        const auto first = cache.map(open("a.txt"));
        const auto second = cache.map(open("a.txt"));
        QVERIFY(first);
        QCOMPARE(second.get(), first.get());
        QCOMPARE(bytesOf(second, 5), QByteArray("a.txt"));
        QCOMPARE(cache.hits(), 1u);
        QCOMPARE(cache.misses(), 1u);
        QCOMPARE(cache.size(), 1u);
    }

    // Rewritten in place, same size: another version (ctime), so another mapping with its bytes.
    void aChangedFileIsMappedAnew()
    {
        const QString path = m_dir.filePath(QStringLiteral("changing.txt"));
        writeFile(path, "first");
        server::MappingCache cache;
        const auto before = cache.map(open("changing.txt"));
        QCOMPARE(bytesOf(before, 5), QByteArray("first"));
        const std::int64_t version = open("changing.txt").changedNs;
        // ctime ticks coarsely (a jiffy): rewritten until the kernel tells the versions apart.
        QTRY_VERIFY_WITH_TIMEOUT(
            (writeFile(path, "other"), open("changing.txt").changedNs != version), 5000);
        const auto after = cache.map(open("changing.txt"));
        QVERIFY(after.get() != before.get());
        QCOMPARE(bytesOf(after, 5), QByteArray("other"));
        QCOMPARE(cache.size(), 1u); // the old version's entry was replaced, not kept beside it
        QCOMPARE(cache.misses(), 2u);
    }

    // Over its entries, the least recently served goes; a response still holding it keeps its
    // bytes readable.
    void theLeastRecentlyServedIsEvictedButStaysWhileHeld()
    {
        server::MappingCache cache(2);
        const auto a = cache.map(open("a.txt"));
        cache.map(open("b.txt"));
        cache.map(open("a.txt")); // b is now the oldest
        cache.map(open("c.txt"));
        QCOMPARE(cache.size(), 2u);
        QCOMPARE(cache.map(open("a.txt")).get(), a.get()); // kept
        const auto misses = cache.misses();
        cache.map(open("b.txt"));
        QCOMPARE(cache.misses(), misses + 1); // evicted, mapped again
        server::MappingCache tiny(1);
        const auto held = tiny.map(open("a.txt"));
        tiny.map(open("b.txt"));
        QCOMPARE(bytesOf(held, 5), QByteArray("a.txt"));
    }

    // The byte budget bounds what is kept; a file larger than all of it is mapped for its
    // response alone. No entries: a mapping per response.
    void theBudgetsBoundWhatIsKept()
    {
        server::MappingCache bytes(8, 10); // two 5-byte files fit
        bytes.map(open("a.txt"));
        bytes.map(open("b.txt"));
        bytes.map(open("c.txt"));
        QCOMPARE(bytes.size(), 2u);
        server::MappingCache small(8, 4);
        QVERIFY(small.map(open("a.txt")));
        QCOMPARE(small.size(), 0u);
        server::MappingCache none(0);
        const auto one = none.map(open("a.txt"));
        const auto two = none.map(open("a.txt"));
        QVERIFY(one && two && one.get() != two.get());
        QCOMPARE(none.size(), 0u);
    }
};

QTEST_GUILESS_MAIN(TestMappingCache)
#include "tst_mappingcache.moc"
