// SPDX-License-Identifier: Apache-2.0
#include "http/documentroot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <chrono>
#include <dirent.h>
#include <fcntl.h>
#include <future>
#include <linux/openat2.h>
#include <string>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using servelab::http::DocumentRoot;
using servelab::http::OpenedFile;

namespace {

int openFdCount()
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return -1;
    int count = 0;
    while (const dirent *entry = readdir(dir)) {
        if (entry->d_name[0] != '.')
            ++count;
    }
    closedir(dir);
    return count;
}

// Deterministic content: byte i is 'a' + i % 26.
QByteArray pattern(int size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    for (int i = 0; i < size; ++i)
        bytes[i] = char('a' + i % 26);
    return bytes;
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QByteArray readAll(int fd, std::uint64_t size)
{
    QByteArray bytes(qsizetype(size), Qt::Uninitialized);
    const auto n = pread(fd, bytes.data(), size, 0);
    return n < 0 ? QByteArray() : bytes.left(n);
}

bool kernelHasOpenat2()
{
    open_how how{};
    how.flags = O_RDONLY | O_CLOEXEC;
    const long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof how);
    if (fd >= 0)
        close(int(fd));
    return fd >= 0 || errno != ENOSYS;
}

// Drains pending inotify events; returns how many there were.
int drainEvents(int inotifyFd)
{
    int events = 0;
    alignas(inotify_event) char buffer[4096];
    for (;;) {
        const auto n = read(inotifyFd, buffer, sizeof buffer);
        if (n <= 0)
            return events;
        for (char *p = buffer; p < buffer + n;) {
            const auto *event = reinterpret_cast<const inotify_event *>(p);
            ++events;
            p += sizeof(inotify_event) + event->len;
        }
    }
}

} // namespace

class TestDocumentRoot : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void regularFile_data();
    void regularFile();
    void missingFile_data();
    void missingFile();
    void directoryServesIndex_data();
    void directoryServesIndex();
    void directoryWithoutIndex();
    void symlinkOutsideIsNeverOpened_data();
    void symlinkOutsideIsNeverOpened();
    void symlinkInside_data();
    void symlinkInside();
    void fifoIsForbiddenWithoutBlocking();
    void unreadableFileIsForbidden();
    void openedFileMovesOwnership();
    void openMissingDirectoryNamesIt();
    void openRegularFileAsRootFails();

private:
    QString rootFile(const QString &relative) const { return m_root.filePath(relative); }

    QTemporaryDir m_root;
    QTemporaryDir m_outside;
    DocumentRoot m_documentRoot;
    int m_fdsBefore = -1;
};

void TestDocumentRoot::initTestCase()
{
    QVERIFY(m_root.isValid());
    QVERIFY(m_outside.isValid());
    QVERIFY(writeFile(rootFile(QStringLiteral("a.txt")), pattern(1000)));
    QVERIFY(writeFile(rootFile(QStringLiteral("page.html")), pattern(4096)));
    QVERIFY(writeFile(rootFile(QStringLiteral("data.unknownext")), pattern(3)));
    QVERIFY(writeFile(rootFile(QStringLiteral("empty.bin")), QByteArray()));
    QVERIFY(writeFile(rootFile(QStringLiteral("index.html")), pattern(10)));
    QVERIFY(QDir(m_root.path()).mkpath(QStringLiteral("dir/sub")));
    QVERIFY(writeFile(rootFile(QStringLiteral("dir/index.html")), pattern(12)));
    QVERIFY(writeFile(rootFile(QStringLiteral("dir/sub/index.html")), pattern(13)));
    QVERIFY(writeFile(rootFile(QStringLiteral("dir/sub/b.css")), pattern(77)));
    QVERIFY(QDir(m_root.path()).mkpath(QStringLiteral("noindex")));
    QVERIFY(writeFile(rootFile(QStringLiteral("noindex/other.txt")), pattern(5)));

    QVERIFY(writeFile(m_outside.filePath(QStringLiteral("secret.txt")), pattern(50)));
    QVERIFY(QDir(m_outside.path()).mkpath(QStringLiteral("d")));
    QVERIFY(writeFile(m_outside.filePath(QStringLiteral("d/index.html")), pattern(51)));

    const auto link = [this](const QString &target, const QString &name) {
        return symlink(QFile::encodeName(target).constData(),
                       QFile::encodeName(rootFile(name)).constData()) == 0;
    };
    const QString outsideName = QFileInfo(m_outside.path()).fileName();
    QVERIFY(link(m_outside.filePath(QStringLiteral("secret.txt")), QStringLiteral("abs-out")));
    QVERIFY(link(QStringLiteral("../") + outsideName + QStringLiteral("/secret.txt"),
                 QStringLiteral("rel-out")));
    QVERIFY(link(m_outside.path(), QStringLiteral("dir-out")));
    QVERIFY(link(QStringLiteral("../../") + outsideName + QStringLiteral("/secret.txt"),
                 QStringLiteral("dir/deep-out")));
    QVERIFY(link(QStringLiteral("a.txt"), QStringLiteral("rel-in")));
    QVERIFY(link(QStringLiteral("../a.txt"), QStringLiteral("dir/up-in")));
    QVERIFY(link(QStringLiteral("dir/sub"), QStringLiteral("dir-in")));

    std::string error;
    QVERIFY2(m_documentRoot.open(QFile::encodeName(m_root.path()).toStdString(), &error),
             error.c_str());
    QCOMPARE(QString::fromStdString(m_documentRoot.path()), m_root.path());
}

void TestDocumentRoot::init()
{
    m_fdsBefore = openFdCount();
    QVERIFY(m_fdsBefore > 0);
}

void TestDocumentRoot::cleanup()
{
    QCOMPARE(openFdCount(), m_fdsBefore);
}

void TestDocumentRoot::regularFile_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<int>("size");
    QTest::addColumn<QString>("contentType");

    QTest::newRow("text") << "a.txt" << 1000 << "text/plain; charset=utf-8";
    QTest::newRow("html") << "page.html" << 4096 << "text/html; charset=utf-8";
    QTest::newRow("unknown extension") << "data.unknownext" << 3 << "application/octet-stream";
    QTest::newRow("empty file") << "empty.bin" << 0 << "application/octet-stream";
    QTest::newRow("nested") << "dir/sub/b.css" << 77 << "text/css";
}

void TestDocumentRoot::regularFile()
{
    QFETCH(QString, relative);
    QFETCH(int, size);
    QFETCH(QString, contentType);

    OpenedFile file = m_documentRoot.openFile(relative.toStdString());
    QCOMPARE(file.status, 200);
    QVERIFY(file.fd >= 0);
    QCOMPARE(file.size, std::uint64_t(size));
    QCOMPARE(QString::fromUtf8(file.contentType.data(), file.contentType.size()), contentType);
    QCOMPARE(readAll(file.fd, file.size), pattern(size));
    QCOMPARE(qint64(file.modified),
             QFileInfo(rootFile(relative)).lastModified().toSecsSinceEpoch());
    QCOMPARE(fcntl(file.fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    QCOMPARE(openFdCount(), m_fdsBefore + 1);
}

void TestDocumentRoot::missingFile_data()
{
    QTest::addColumn<QString>("relative");

    QTest::newRow("missing") << "nothing.txt";
    QTest::newRow("missing in a directory") << "dir/nothing.txt";
    QTest::newRow("missing directory") << "nodir/a.txt";
    QTest::newRow("file used as a directory") << "a.txt/x";
    QTest::newRow("name too long") << QString(300, u'n');
}

void TestDocumentRoot::missingFile()
{
    QFETCH(QString, relative);

    OpenedFile file = m_documentRoot.openFile(relative.toStdString());
    QCOMPARE(file.status, 404);
    QCOMPARE(file.fd, -1);
}

void TestDocumentRoot::directoryServesIndex_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<int>("size");

    QTest::newRow("root") << "" << 10;
    QTest::newRow("dir") << "dir" << 12;
    QTest::newRow("dir/sub") << "dir/sub" << 13;
}

void TestDocumentRoot::directoryServesIndex()
{
    QFETCH(QString, relative);
    QFETCH(int, size);

    OpenedFile file = m_documentRoot.openFile(relative.toStdString());
    QCOMPARE(file.status, 200);
    QVERIFY(file.fd >= 0);
    QCOMPARE(file.size, std::uint64_t(size));
    QCOMPARE(QByteArray(file.contentType.data(), file.contentType.size()),
             QByteArray("text/html; charset=utf-8"));
    QCOMPARE(readAll(file.fd, file.size), pattern(size));
    // The directory's own fd must be gone: only the index stays open.
    QCOMPARE(openFdCount(), m_fdsBefore + 1);
}

void TestDocumentRoot::directoryWithoutIndex()
{
    OpenedFile file = m_documentRoot.openFile("noindex");
    QCOMPARE(file.status, 403); // there, but not listed (as nginx and Apache answer)
    QCOMPARE(file.fd, -1);
}

void TestDocumentRoot::symlinkOutsideIsNeverOpened_data()
{
    QTest::addColumn<QString>("relative");

    QTest::newRow("absolute link to a file") << "abs-out";
    QTest::newRow("relative link climbing out") << "rel-out";
    QTest::newRow("nested relative link climbing out") << "dir/deep-out";
    QTest::newRow("link to a directory, file below") << "dir-out/secret.txt";
    QTest::newRow("link to a directory with an index") << "dir-out/d";
}

void TestDocumentRoot::symlinkOutsideIsNeverOpened()
{
    QFETCH(QString, relative);

    const int inotifyFd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    QVERIFY(inotifyFd >= 0);
    const auto closeInotify = qScopeGuard([inotifyFd] { close(inotifyFd); });
    const QByteArray outside = QFile::encodeName(m_outside.path());
    const QByteArray outsideDir = QFile::encodeName(m_outside.filePath(QStringLiteral("d")));
    QVERIFY(inotify_add_watch(inotifyFd, outside.constData(), IN_OPEN) >= 0);
    QVERIFY(inotify_add_watch(inotifyFd, outsideDir.constData(), IN_OPEN) >= 0);

    // The watch sees an open of the target, so silence below means it was never opened.
    const QByteArray secret = QFile::encodeName(m_outside.filePath(QStringLiteral("secret.txt")));
    const int control = ::open(secret.constData(), O_RDONLY | O_CLOEXEC);
    QVERIFY(control >= 0);
    close(control);
    QVERIFY(drainEvents(inotifyFd) > 0);

    {
        OpenedFile file = m_documentRoot.openFile(relative.toStdString());
        QCOMPARE(file.status, 404);
        QCOMPARE(file.fd, -1);
    }
    QCOMPARE(drainEvents(inotifyFd), 0);
}

void TestDocumentRoot::symlinkInside_data()
{
    QTest::addColumn<QString>("relative");
    QTest::addColumn<int>("size");

    QTest::newRow("link to a sibling") << "rel-in" << 1000;
    QTest::newRow("link up to the root") << "dir/up-in" << 1000;
    QTest::newRow("link to a directory") << "dir-in/b.css" << 77;
}

void TestDocumentRoot::symlinkInside()
{
    QFETCH(QString, relative);
    QFETCH(int, size);

    if (!kernelHasOpenat2())
        QSKIP("without openat2 (Linux < 5.6) every symlink is refused by design");
    OpenedFile file = m_documentRoot.openFile(relative.toStdString());
    QCOMPARE(file.status, 200);
    QVERIFY(file.fd >= 0);
    QCOMPARE(file.size, std::uint64_t(size));
    QCOMPARE(readAll(file.fd, file.size), pattern(size));
}

void TestDocumentRoot::fifoIsForbiddenWithoutBlocking()
{
    const QByteArray fifo = QFile::encodeName(rootFile(QStringLiteral("fifo")));
    QCOMPARE(mkfifo(fifo.constData(), 0644), 0);
    const auto removeFifo = qScopeGuard([&fifo] { unlink(fifo.constData()); });

    auto result = std::async(std::launch::async, [this] {
        const OpenedFile file = m_documentRoot.openFile("fifo");
        return std::make_pair(file.status, file.fd);
    });
    if (result.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
        // Give the blocked open() a writer so the thread can finish, then fail.
        const int writer = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        result.wait();
        if (writer >= 0)
            close(writer);
        QFAIL("opening a FIFO in the document root blocked");
    }
    const auto [status, fd] = result.get();
    QCOMPARE(status, 403);
    QCOMPARE(fd, -1);
}

void TestDocumentRoot::unreadableFileIsForbidden()
{
    if (geteuid() == 0)
        QSKIP("root reads a mode-000 file anyway");
    const QString path = rootFile(QStringLiteral("locked.txt"));
    QVERIFY(writeFile(path, pattern(10)));
    const auto remove = qScopeGuard([&path] { QFile::remove(path); });
    QCOMPARE(chmod(QFile::encodeName(path).constData(), 0), 0);

    OpenedFile file = m_documentRoot.openFile("locked.txt");
    QCOMPARE(file.status, 403);
    QCOMPARE(file.fd, -1);
}

void TestDocumentRoot::openedFileMovesOwnership()
{
    OpenedFile first = m_documentRoot.openFile("a.txt");
    QCOMPARE(first.status, 200);
    const int fd = first.fd;

    OpenedFile second(std::move(first));
    QCOMPARE(second.fd, fd);
    QCOMPARE(first.fd, -1);

    OpenedFile third = m_documentRoot.openFile("page.html");
    QCOMPARE(openFdCount(), m_fdsBefore + 2);
    third = std::move(second); // closes page.html's fd
    QCOMPARE(third.fd, fd);
    QCOMPARE(third.size, std::uint64_t(1000));
    QCOMPARE(openFdCount(), m_fdsBefore + 1);

    third = OpenedFile{}; // the last owner closes it
    QCOMPARE(third.fd, -1);
    QCOMPARE(openFdCount(), m_fdsBefore);
}

void TestDocumentRoot::openMissingDirectoryNamesIt()
{
    const std::string missing =
        QFile::encodeName(m_root.filePath(QStringLiteral("no/such"))).toStdString();
    DocumentRoot root;
    std::string error;
    QVERIFY(!root.open(missing, &error));
    QVERIFY2(error.find(missing) != std::string::npos, error.c_str());
    QVERIFY(!root.open(missing, nullptr));
}

void TestDocumentRoot::openRegularFileAsRootFails()
{
    const std::string file = QFile::encodeName(rootFile(QStringLiteral("a.txt"))).toStdString();
    DocumentRoot root;
    std::string error;
    QVERIFY(!root.open(file, &error));
    QVERIFY2(error.find(file) != std::string::npos, error.c_str());
}

QTEST_GUILESS_MAIN(TestDocumentRoot)
#include "tst_documentroot.moc"
