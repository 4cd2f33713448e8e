// SPDX-License-Identifier: Apache-2.0
#include "os/uniquefd.h"

#include <QTest>

#include <fcntl.h>
#include <sys/eventfd.h>

using servelab::os::UniqueFd;

namespace {

bool isOpen(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

} // namespace

class TestUniqueFd : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void closesWhenItGoes()
    {
        int fd = -1;
        {
            const UniqueFd owned(eventfd(0, EFD_CLOEXEC));
            fd = owned.get();
            QVERIFY(owned);
            QVERIFY(isOpen(fd));
        }
        QVERIFY(!isOpen(fd));
    }

    void movesOwnership()
    {
        UniqueFd a(eventfd(0, EFD_CLOEXEC));
        const int fd = a.get();
        UniqueFd b(std::move(a));
        QVERIFY(!a); // NOLINT(bugprone-use-after-move): the moved-from one holds nothing
        QCOMPARE(b.get(), fd);
        UniqueFd c(eventfd(0, EFD_CLOEXEC));
        const int other = c.get();
        c = std::move(b); // closes what c held
        QVERIFY(!isOpen(other));
        QCOMPARE(c.get(), fd);
        QVERIFY(isOpen(fd));
    }

    void releaseGivesItUpAndResetReplaces()
    {
        UniqueFd a(eventfd(0, EFD_CLOEXEC));
        const int fd = a.release();
        QVERIFY(!a);
        QVERIFY(isOpen(fd));
        a.reset(fd);
        a.reset(fd); // the same one again: kept, not closed
        QVERIFY(isOpen(fd));
        a.reset();
        QVERIFY(!isOpen(fd));
    }
};

QTEST_GUILESS_MAIN(TestUniqueFd)
#include "tst_uniquefd.moc"
