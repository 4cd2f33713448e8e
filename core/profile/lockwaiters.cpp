// SPDX-License-Identifier: Apache-2.0
#include "lockwaiters.h"

#include <QHash>

#include <algorithm>
#include <array>

namespace servelab::profile {

namespace {

// Frames that mean "blocked acquiring a lock", by the names glibc 2.36, libstdc++ and Linux
// give them (perf --no-inline shows the outermost of glibc's inlined frames), without symbol
// versions ("@@GLIBC_2.2.5") and compiler suffixes (".constprop.0"). Kernel ones only as
// kernel frames: a user function may be called mutex_lock.
struct LockFrame
{
    const char *name;
    bool kernel;
};
constexpr std::array lockFrames{
    LockFrame{"__lll_lock_wait", false},
    LockFrame{"__GI___lll_lock_wait", false},
    LockFrame{"pthread_mutex_lock", false},
    LockFrame{"___pthread_mutex_lock", false},
    LockFrame{"__pthread_mutex_lock", false},
    LockFrame{"__pthread_mutex_lock_full", false},
    LockFrame{"__pthread_mutex_cond_lock", false}, // a woken condition wait takes its mutex back
    LockFrame{"pthread_mutex_timedlock", false},
    LockFrame{"__pthread_mutex_clocklock_common", false},
    LockFrame{"___pthread_rwlock_rdlock", false},
    LockFrame{"___pthread_rwlock_wrlock", false},
    LockFrame{"__pthread_rwlock_rdlock_full64", false},
    LockFrame{"__pthread_rwlock_wrlock_full64", false},
    LockFrame{"__mutex_lock", true}, // a kernel mutex: epoll_ctl's, an inode's
    LockFrame{"rwsem_down_read_slowpath", true},
    LockFrame{"rwsem_down_write_slowpath", true},
};
// Frames of the lock's own wrapper: skipped when looking for who asked.
constexpr std::array wrapperPrefixes{"std::mutex::",        "std::lock_guard",
                                     "std::unique_lock",    "std::scoped_lock",
                                     "std::shared_mutex",   "std::condition_variable",
                                     "__gthread_",          "std::__",
                                     "pthread_cond_wait",   "___pthread_cond_wait",
                                     "__pthread_cond_wait", "QMutex",
                                     "QBasicMutex",         "QMutexLocker"};

// "pthread_mutex_lock@@GLIBC_2.2.5" → "pthread_mutex_lock"; "__mutex_lock.constprop.0 [k]" →
// "__mutex_lock"; *kernel says which it was.
QString bareName(const QString &frame, bool *kernel = nullptr)
{
    QString name = frame;
    const bool k = name.endsWith(QStringLiteral(" [k]"));
    if (k)
        name.chop(4);
    if (const qsizetype at = name.indexOf(u'@'); at > 0)
        name.truncate(at);
    if (const qsizetype dot = name.indexOf(u'.'); dot > 0)
        name.truncate(dot);
    if (kernel)
        *kernel = k;
    return name;
}

bool isWrapper(const QString &frame)
{
    const QString name = bareName(frame);
    return std::any_of(wrapperPrefixes.cbegin(), wrapperPrefixes.cend(),
                       [&](const char *p) { return name.startsWith(QLatin1StringView(p)); });
}

// "ns::Class::fn<T>(args)" → "ns::Class::fn": the function, whatever it was instantiated for;
// "(anonymous namespace)" is "{anonymous}", not an argument list.
QString withoutTemplates(QString frame)
{
    frame.replace(QStringLiteral("(anonymous namespace)"), QStringLiteral("{anonymous}"));
    QString out;
    int depth = 0;
    for (const QChar c : frame) {
        if (c == u'<')
            ++depth;
        else if (c == u'>')
            depth = std::max(0, depth - 1);
        else if (depth == 0)
            out += c;
    }
    if (const qsizetype paren = out.indexOf(u'('); paren > 0)
        out.truncate(paren);
    return out;
}

// The index (root first) of the innermost lock frame, -1 if the stack waits for no lock.
qsizetype lockFrameIn(const QStringList &frames)
{
    for (qsizetype i = frames.size() - 1; i >= 0; --i)
        if (LockWaiters::isLockFrame(frames[i]))
            return i;
    return -1;
}

} // namespace

bool LockWaiters::isLockFrame(const QString &frame)
{
    bool kernel = false;
    const QString name = bareName(frame, &kernel);
    return std::any_of(lockFrames.cbegin(), lockFrames.cend(), [&](const LockFrame &lock) {
        return lock.kernel == kernel && name == QLatin1StringView(lock.name);
    });
}

QList<LockWaiters::Waiter> LockWaiters::of(const FoldedStacks &offCpu)
{
    QHash<QString, Waiter> byFunction;
    for (auto it = offCpu.weights().cbegin(); it != offCpu.weights().cend(); ++it) {
        const QStringList frames = it.key().split(u';');
        qsizetype i = lockFrameIn(frames);
        if (i < 0)
            continue;
        // Outwards from the lock (towards the root) past the lock's own frames.
        while (i > 0 && (isLockFrame(frames[i]) || isWrapper(frames[i])))
            --i;
        const QString function = withoutTemplates(frames[i]);
        Waiter &w = byFunction[function];
        w.function = function;
        w.micros += it.value();
    }
    QList<Waiter> out = byFunction.values();
    std::sort(out.begin(), out.end(), [](const Waiter &a, const Waiter &b) {
        return a.micros != b.micros ? a.micros > b.micros : a.function < b.function;
    });
    return out;
}

FoldedStacks LockWaiters::stacks(const FoldedStacks &offCpu)
{
    return offCpu.filtered([](const QStringList &frames) { return lockFrameIn(frames) >= 0; });
}

} // namespace servelab::profile
