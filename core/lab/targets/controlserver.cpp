// SPDX-License-Identifier: Apache-2.0
#include "controlserver.h"

#include "lab/spec/servertuning.h"
#include "server/server.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace servelab::lab {

namespace {

constexpr int clientIdleMs = 10000;
constexpr int retryMs = 100; // after an accept that failed
constexpr qsizetype longestRequest = 4096;

QString why()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool sendAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n =
            ::send(fd, bytes.constData() + done, std::size_t(bytes.size() - done), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

} // namespace

ControlServer::ControlServer(server::Server &server) : m_server(server) {}

ControlServer::~ControlServer()
{
    stop();
}

QString ControlServer::defaultPath(qint64 pid)
{
    const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
    const QString folder = !runtime.isEmpty() && QFileInfo(QString::fromLocal8Bit(runtime)).isDir()
                               ? QString::fromLocal8Bit(runtime) + QStringLiteral("/servelab")
                               : QStringLiteral("/tmp/servelab-%1").arg(::getuid());
    return QStringLiteral("%1/serve-%2.sock").arg(folder).arg(pid);
}

bool ControlServer::start(const QString &path, QString *error)
{
    const QByteArray native = QFile::encodeName(path);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (native.isEmpty() || std::size_t(native.size()) >= sizeof address.sun_path) {
        *error = QStringLiteral("the control socket path '%1' is empty or longer than %2 bytes: "
                                "give a shorter --control")
                     .arg(path)
                     .arg(sizeof address.sun_path - 1);
        return false;
    }
    std::memcpy(address.sun_path, native.constData(), std::size_t(native.size()));
    const QString folder = QFileInfo(path).absolutePath();
    QDir().mkpath(folder);
    // The default folders (defaultPath()) must be this user's: in /tmp someone else could have
    // made one first. A path given by hand is the user's choice.
    if (QFileInfo(folder).fileName().startsWith(QStringLiteral("servelab")) &&
        QFileInfo(folder).ownerId() != ::getuid()) {
        *error = QStringLiteral("the folder of the control socket, %1, is not yours: give a "
                                "--control path in a folder of your own")
                     .arg(folder);
        return false;
    }
    // Sockets left there by servers killed with -9: a process that is gone answers no more.
    if (QFileInfo(folder).fileName().startsWith(QStringLiteral("servelab")))
        for (const QString &name :
             QDir(folder).entryList({QStringLiteral("serve-*.sock")}, QDir::System | QDir::Files)) {
            const QString pid = name.mid(6).chopped(5);
            if (!QFileInfo::exists(QStringLiteral("/proc/") + pid))
                QFile::remove(QDir(folder).filePath(name));
        }
    if (QFileInfo(path).exists()) {
        // A server that died left its socket: nobody answers on it, so it may go.
        os::UniqueFd probe(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (::connect(probe.get(), reinterpret_cast<const sockaddr *>(&address), sizeof address) ==
            0) {
            *error = QStringLiteral("another server already listens on the control socket %1: "
                                    "give another --control")
                         .arg(path);
            return false;
        }
        ::unlink(native.constData());
    }
    m_listen.reset(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!m_listen ||
        ::bind(m_listen.get(), reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 ||
        ::listen(m_listen.get(), 8) != 0) {
        *error = QStringLiteral("cannot open the control socket %1: %2").arg(path, why());
        m_listen.reset();
        return false;
    }
    ::chmod(native.constData(), 0600); // the server's user's alone: it changes the server
    m_stop.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    m_spare.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!m_stop) {
        *error = QStringLiteral("cannot start the control channel: %1").arg(why());
        ::unlink(native.constData());
        m_listen.reset();
        return false;
    }
    m_path = path;
    m_thread = std::thread([this] { run(); });
    return true;
}

void ControlServer::stop()
{
    if (!m_thread.joinable())
        return;
    const std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_stop.get(), &one, sizeof one);
    m_thread.join();
    ::unlink(QFile::encodeName(m_path).constData());
    m_listen.reset();
    m_stop.reset();
    m_spare.reset();
}

void ControlServer::run()
{
    for (;;) {
        pollfd fds[2] = {{m_listen.get(), POLLIN, 0}, {m_stop.get(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return;
        if (fds[1].revents)
            return;
        if (!(fds[0].revents & POLLIN))
            continue;
        os::UniqueFd client(::accept4(m_listen.get(), nullptr, nullptr, SOCK_CLOEXEC));
        if (!client && (errno == EMFILE || errno == ENFILE) && m_spare) {
            // Out of descriptors (the ulimit presets do it on purpose): the spare one makes
            // room for the client, so the counters can still be read.
            m_spare.reset();
            client.reset(::accept4(m_listen.get(), nullptr, nullptr, SOCK_CLOEXEC));
        }
        if (client) {
            serveClient(client.get());
            client.reset();
        } else {
            // Not even that: wait a little, rather than spin on a listener that stays readable.
            pollfd stop{m_stop.get(), POLLIN, 0};
            if (::poll(&stop, 1, retryMs) > 0)
                return;
        }
        if (!m_spare)
            m_spare.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    }
}

void ControlServer::serveClient(int fd)
{
    QByteArray pending;
    for (;;) {
        qsizetype end;
        while ((end = pending.indexOf('\n')) >= 0) {
            const QByteArray request = pending.left(end).trimmed();
            pending.remove(0, end + 1);
            if (!sendAll(fd, answer(m_server, request) + '\n'))
                return;
        }
        if (pending.size() > longestRequest) {
            sendAll(fd, QByteArrayLiteral("error the request is longer than 4096 bytes\n"));
            return;
        }
        pollfd fds[2] = {{fd, POLLIN, 0}, {m_stop.get(), POLLIN, 0}};
        const int ready = ::poll(fds, 2, clientIdleMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0 || fds[1].revents)
            return;
        char buffer[1024];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            return;
        pending.append(buffer, n);
    }
}

QByteArray ControlServer::answer(server::Server &server, const QByteArray &request)
{
    const QList<QByteArray> words = request.simplified().split(' ');
    const QByteArray &command = words.first();
    const auto options = [&server] {
        return "options " + ServerTuning::current(server.options()).join(u' ').toUtf8();
    };
    if (command == "stats" && words.size() == 1)
        return QByteArray::fromStdString(server.stats().toLine());
    if (command == "get" && words.size() == 1)
        return options();
    if (command == "set") {
        QStringList assignments;
        for (qsizetype i = 1; i < words.size(); ++i)
            assignments << QString::fromUtf8(words[i]);
        QString error;
        if (!ServerTuning::tune(server, assignments, &error))
            return "error " + error.toUtf8();
        return "ok " + options().mid(8);
    }
    return "error unknown request '" + request.left(80) +
           "': stats, get or set NAME=VALUE ... (servelab-cli tune --help)";
}

} // namespace servelab::lab
