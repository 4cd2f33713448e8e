// SPDX-License-Identifier: Apache-2.0
#include "profile/lockwaiters.h"

#include <QTest>

using namespace servelab::profile;

class TestLockWaiters : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void theWaiterIsWhoAskedForTheLock()
    {
        FoldedStacks off;
        // Two ways into the queue's mutex, a registry's through a template, and waits for work.
        off.add(QStringLiteral("start_thread;PoolWorker::run;ns::PollerShared::pop;"
                               "std::unique_lock<std::mutex>::lock;std::mutex::lock;"
                               "__gthread_mutex_lock;__GI___lll_lock_wait;futex_wait [k]"),
                300);
        off.add(QStringLiteral("start_thread;Watcher::run;ns::PollerShared::push;"
                               "std::lock_guard<std::mutex>::lock_guard;std::mutex::lock;"
                               "__GI___lll_lock_wait;futex_wait [k]"),
                500);
        off.add(QStringLiteral("start_thread;PoolWorker::run;"
                               "ns::Registry::handBack<ns::Watcher::arm(int)::{lambda()#1}>;"
                               "___pthread_mutex_lock;__lll_lock_wait"),
                200);
        off.add(QStringLiteral("start_thread;PoolWorker::run;ns::PollerShared::pop;"
                               "std::condition_variable::wait;__futex_abstimed_wait_common"),
                90000);
        off.add(QStringLiteral("start_thread;Watcher::run;epoll_wait;do_epoll_wait [k]"), 50000);

        const auto waiters = LockWaiters::of(off);
        QCOMPARE(waiters.size(), 3);
        QCOMPARE(waiters[0].function, QStringLiteral("ns::PollerShared::push"));
        QCOMPARE(waiters[0].micros, 500.0);
        QCOMPARE(waiters[1].function, QStringLiteral("ns::PollerShared::pop"));
        QCOMPARE(waiters[2].function, QStringLiteral("ns::Registry::handBack"));
        QCOMPARE(LockWaiters::stacks(off).size(), 3);
        QCOMPARE(LockWaiters::stacks(off).total(), 1000.0);
    }

    // As perf names them: symbol versions, a condition wait taking its mutex back, and a
    // kernel mutex (epoll_ctl's) — only as a kernel frame.
    void versionedGlibcAndKernelLocks()
    {
        FoldedStacks off;
        off.add(QStringLiteral("run;ns::Registry::handBack<ns::X>;std::lock_guard<std::mutex>::"
                               "lock_guard;std::mutex::lock;__gthread_mutex_lock;"
                               "pthread_mutex_lock@@GLIBC_2.2.5;__GI___lll_lock_wait;"
                               "entry_SYSCALL_64_after_hwframe [k]"),
                4000);
        off.add(QStringLiteral("run;ns::PollerShared::pop;std::condition_variable::wait<ns::Y>;"
                               "pthread_cond_wait@@GLIBC_2.3.2;__pthread_mutex_cond_lock;"
                               "__GI___lll_lock_wait"),
                300);
        off.add(QStringLiteral("run;ns::Watcher::arm;epoll_ctl;__x64_sys_epoll_ctl [k];"
                               "do_epoll_ctl [k];__mutex_lock.constprop.0 [k];schedule [k]"),
                200);
        off.add(QStringLiteral("run;ns::mine::__mutex_lock;other"), 100); // a user function
        off.add(QStringLiteral("ns::(anonymous namespace)::PoolWorker::run;__lll_lock_wait"), 50);
        const auto waiters = LockWaiters::of(off);
        QCOMPARE(waiters.size(), 4);
        QCOMPARE(waiters[0].function, QStringLiteral("ns::Registry::handBack"));
        QCOMPARE(waiters[1].function, QStringLiteral("ns::PollerShared::pop"));
        QCOMPARE(waiters[2].function, QStringLiteral("do_epoll_ctl [k]"));
        QCOMPARE(waiters[3].function, QStringLiteral("ns::{anonymous}::PoolWorker::run"));
    }

    void noLockNoWaiter()
    {
        FoldedStacks off;
        off.add(QStringLiteral("main;sem_wait;futex_wait [k]"), 1000);
        QVERIFY(LockWaiters::of(off).isEmpty());
        QVERIFY(LockWaiters::stacks(off).isEmpty());
        QVERIFY(LockWaiters::isLockFrame(QStringLiteral("__lll_lock_wait")));
        QVERIFY(!LockWaiters::isLockFrame(QStringLiteral("sem_wait")));
    }
};

QTEST_GUILESS_MAIN(TestLockWaiters)
#include "tst_lockwaiters.moc"
