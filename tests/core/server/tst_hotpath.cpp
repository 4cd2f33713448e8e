// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/docrootgenerator.h"
#include "loopback.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <new>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

// Counts, in this whole process, every operator new and every pthread_mutex_lock made while
// `counting` is on: this executable's definitions replace the library's (operator new, as the
// standard allows) or come first in symbol lookup (pthread_mutex_lock, which std::mutex calls),
// and pass on to the real ones. Built without sanitizers only: they replace both themselves.
namespace {
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> locks{0};

using LockFunction = int (*)(pthread_mutex_t *);
std::atomic<LockFunction> realLock{nullptr};

void *allocate(std::size_t size)
{
    if (counting.load(std::memory_order_relaxed))
        allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
} // namespace

void *operator new(std::size_t size)
{
    return allocate(size);
}
void *operator new[](std::size_t size)
{
    return allocate(size);
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete[](void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    std::free(p);
}

extern "C" int pthread_mutex_lock(pthread_mutex_t *mutex)
{
    LockFunction real = realLock.load(std::memory_order_acquire);
    if (!real) {
        real = reinterpret_cast<LockFunction>(dlsym(RTLD_NEXT, "pthread_mutex_lock"));
        realLock.store(real, std::memory_order_release);
    }
    if (counting.load(std::memory_order_relaxed))
        locks.fetch_add(1, std::memory_order_relaxed);
    return real(mutex);
}

using namespace servelab;

namespace {

// A kept-alive connection that sends one fixed request and reads a response of a known
// length, with no allocation and no lock of its own (send, recv, a static buffer).
class BareClient
{
public:
    explicit BareClient(quint16 port) : m_fd(connectLoopback(port))
    {
        const int one = 1;
        setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    ~BareClient() { ::close(m_fd); }
    bool connected() const { return m_fd >= 0; }

    // Sends the request and reads one response, whose length `lengthOf` tells from its head
    // (0: the head is not all there yet); returns that length, or 0 on a failure. Body bytes
    // past the buffer are counted, not kept.
    template<typename LengthOf>
    std::size_t exchange(const char *request, std::size_t length, LengthOf lengthOf)
    {
        if (::send(m_fd, request, length, MSG_NOSIGNAL) != ssize_t(length))
            return 0;
        std::size_t have = 0;
        std::size_t whole = 0;
        while (whole == 0 || have < whole) {
            char *at = whole ? m_buffer : m_buffer + have;
            const std::size_t room = whole ? sizeof m_buffer : sizeof m_buffer - have;
            const ssize_t n = ::recv(m_fd, at, room, 0);
            if (n <= 0)
                return 0;
            have += std::size_t(n);
            if (whole == 0 && (whole = lengthOf(m_buffer, have)) == 0 && have == sizeof m_buffer)
                return 0; // a head this long is not this test's
        }
        return have == whole ? whole : 0; // more than one response: not this test's
    }

private:
    int m_fd = -1;
    char m_buffer[1 << 16];
};

// The length of the response whose head is in `data`, from its Content-Length; 0 until the
// head is all there.
std::size_t responseLength(const char *data, std::size_t have)
{
    const std::string_view text(data, have);
    const auto end = text.find("\r\n\r\n");
    const auto field = text.find("Content-Length: ");
    if (end == text.npos || field == text.npos || field > end)
        return 0;
    return end + 4 + std::strtoull(data + field + 16, nullptr, 10);
}

} // namespace

// "No hot path takes a lock or allocates per request" (issue 16), checked: the event-loop
// modes answer kept-alive requests with no operator new and no mutex, with and without the
// open-file cache. What is allowed is per second, not per request (the Date text, a cache
// entry revalidated), so the bound is a hundredth of the requests.
class TestHotPath : public QObject
{
    Q_OBJECT
    QTemporaryDir m_root;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(lab::DocRootGenerator::ensure(m_root.path(), {4096, 256 * 1024}, &error),
                 qPrintable(error));
    }

    void keptAliveRequestsNeitherAllocateNorLock_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("cache");
        QTest::addColumn<QString>("path");
        for (const auto &mode : server::availableModes()) {
            if (mode.model != "epoll" && mode.model != "uring")
                continue; // the others hand connections between threads, through a lock
            for (const int cache : {0, 1000})
                for (const char *path : {"/4K.bin", "/256K.bin"})
                    QTest::addRow("%s, cache %d, %s", mode.name().c_str(), cache, path)
                        << QString::fromStdString(mode.name()) << cache
                        << QString::fromLatin1(path);
        }
    }
    void keptAliveRequestsNeitherAllocateNorLock()
    {
        QFETCH(QString, mode);
        QFETCH(int, cache);
        QFETCH(QString, path);
        server::ServerOptions options;
        options.root = m_root.path().toStdString();
        options.mode = mode.toStdString();
        options.openFileCacheEntries = cache;
        options.maxRequestsPerConnection = 0;
        std::string error;
        auto server = server::createServer(options, &error);
        QVERIFY2(server && server->start(&error), error.c_str());
        BareClient client(server->port());
        QVERIFY(client.connected());
        const QByteArray request =
            "GET " + path.toLatin1() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        // Warm: the connection's buffers, the cache's entry, the thread's free lists.
        std::size_t length = 0;
        for (int i = 0; i < 100; ++i)
            QVERIFY((length = client.exchange(request.data(), request.size(), responseLength)) > 0);

        constexpr int requests = 3000;
        allocations = 0;
        locks = 0;
        counting = true;
        int answered = 0;
        while (answered < requests &&
               client.exchange(request.data(), request.size(), responseLength) == length)
            ++answered;
        counting = false;
        QCOMPARE(answered, requests);
        QVERIFY2(allocations.load() <= requests / 100,
                 qPrintable(QStringLiteral("%1 allocations in %2 requests")
                                .arg(allocations.load())
                                .arg(requests)));
        QVERIFY2(
            locks.load() <= requests / 100,
            qPrintable(
                QStringLiteral("%1 mutex locks in %2 requests").arg(locks.load()).arg(requests)));
    }

    // The counters count: a std::mutex and a new on this thread are seen.
    void theCountersSeeWhatTheyCount()
    {
        std::mutex mutex;
        allocations = 0;
        locks = 0;
        counting = true;
        {
            const std::lock_guard lock(mutex);
            char *text = new char[100];
            asm volatile("" : : "r"(text) : "memory"); // escapes: the pair cannot be elided
            delete[] text;
        }
        counting = false;
        QCOMPARE(locks.load(), 1u);
        QCOMPARE(allocations.load(), 1u);
    }
};

QTEST_GUILESS_MAIN(TestHotPath)
#include "tst_hotpath.moc"
