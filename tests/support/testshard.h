// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

// One share of a long test executable: SERVELAB_TEST_SHARD=i/n, set by
// servelab_add_test(... SHARDS n) in tests/CMakeLists.txt, which registers the n shards as
// ctest tests of their own so that they run side by side. The items (a test function's row, a
// mode of the contract) are dealt round-robin in the order the executable meets them, the same
// in every shard; shard i takes items i, i+n, i+2n, ... Together the shards run each item once.
// Without the variable, one shard takes everything.
class TestShard
{
public:
    static TestShard &current()
    {
        static TestShard shard = fromEnvironment();
        return shard;
    }

    // The shard that runs the next item; call once per item, in the same order everywhere.
    int shardOfNext() { return m_next++ % m_count; }
    bool takesNext() { return shardOfNext() == m_index; }
    int index() const { return m_index; }
    int count() const { return m_count; }

private:
    TestShard(int index, int count) : m_index(index), m_count(count) {}

    static TestShard fromEnvironment()
    {
        const QString value = qEnvironmentVariable("SERVELAB_TEST_SHARD");
        if (value.isEmpty())
            return {0, 1};
        const QStringList parts = value.split(QLatin1Char('/'));
        bool indexOk = false, countOk = false;
        const int index = parts.size() == 2 ? parts[0].toInt(&indexOk) : -1;
        const int count = parts.size() == 2 ? parts[1].toInt(&countOk) : 0;
        if (!indexOk || !countOk || count < 1 || index < 0 || index >= count) {
            std::fprintf(stderr, "SERVELAB_TEST_SHARD=%s: expected i/n with 0 <= i < n\n",
                         qPrintable(value));
            std::exit(2);
        }
        return {index, count};
    }

    int m_index;
    int m_count;
    int m_next = 0;
};

// In a test class's init(): skips the function or row unless it is this shard's.
#define SERVELAB_SHARD_INIT()                                                                    \
    do {                                                                                         \
        if (const int owner = TestShard::current().shardOfNext();                                \
            owner != TestShard::current().index())                                               \
            QSKIP(qPrintable(QStringLiteral("run by shard %1/%2, not this one")                  \
                                 .arg(owner)                                                     \
                                 .arg(TestShard::current().count())));                           \
    } while (false)
