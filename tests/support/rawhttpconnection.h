// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "loopback.h"

#include <QByteArray>
#include <QDir>
#include <QFileInfo>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// A deliberately plain blocking HTTP/1.1 client for the server tests: it must not trust the
// code it checks (not ServeLab's client, not Qt's), and it never waits more than 5 s for a byte.
class RawHttpConnection
{
public:
    explicit RawHttpConnection(quint16 port)
    {
        m_fd = connectLoopback(port);
        m_connected = m_fd >= 0;
        timeval deadline{5, 0}; // also for tests that recv() on fd() themselves
        setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &deadline, sizeof deadline);
    }
    ~RawHttpConnection() { ::close(m_fd); }
    RawHttpConnection(const RawHttpConnection &) = delete;
    RawHttpConnection &operator=(const RawHttpConnection &) = delete;

    bool connected() const { return m_connected; }
    int fd() const { return m_fd; }

    // Whether every byte went out (false too when the peer has gone: dribblers use that).
    [[nodiscard]] bool send(const QByteArray &bytes)
    {
        return ::send(m_fd, bytes.data(), size_t(bytes.size()), MSG_NOSIGNAL) == bytes.size();
    }

    // Reads one response: the head, then exactly Content-Length body bytes (none when `noBody`
    // — an answer to HEAD — or for a 304). Returns its status; 0 when no whole response came
    // within the deadline, the peer closed first, or the head is not HTTP/1.1 with a length.
    int readResponse(QByteArray *head, QByteArray *body = nullptr, bool noBody = false)
    {
        while (!m_buffer.contains("\r\n\r\n"))
            if (!fill())
                return 0;
        const qsizetype end = m_buffer.indexOf("\r\n\r\n") + 4;
        *head = m_buffer.left(end);
        m_buffer.remove(0, end);
        if (!head->startsWith("HTTP/1.1 ") || head->size() < 12)
            return 0;
        const int status = head->mid(9, 3).toInt();
        const qsizetype at = head->toLower().indexOf("\r\ncontent-length: ");
        if (at < 0 && status != 304)
            return 0;
        const qint64 length =
            at < 0 ? 0 : head->mid(at + 18, head->indexOf('\r', at + 2) - at - 18).toLongLong();
        const qint64 expected = noBody || status == 304 ? 0 : length;
        while (m_buffer.size() < expected)
            if (!fill())
                return 0;
        if (body)
            *body = m_buffer.left(expected);
        m_buffer.remove(0, expected);
        return status;
    }

    // True once the peer has closed and sent nothing more.
    bool closedByPeer()
    {
        if (!m_buffer.isEmpty())
            return false;
        char c;
        return waitReadable() && ::recv(m_fd, &c, 1, 0) == 0;
    }
    // Closed either way: with a FIN, or with a reset (a server that closes a socket whose input
    // it has not read yet resets it, RFC 9293 §3.6).
    bool closedOrReset()
    {
        if (!m_buffer.isEmpty())
            return false;
        char c;
        if (!waitReadable())
            return false;
        const ssize_t n = ::recv(m_fd, &c, 1, 0);
        return n == 0 || (n < 0 && errno == ECONNRESET);
    }

    // Descriptors this process has open, for "every fd back" checks.
    static int countOpenFds()
    {
        return int(QDir(QStringLiteral("/proc/self/fd"))
                       .entryList(QDir::NoDotAndDotDot | QDir::AllEntries)
                       .size());
    }

    // Sockets among them: what a leaked connection leaves, whatever files a server's
    // per-thread open-file caches hold.
    static int countOpenSockets()
    {
        int sockets = 0;
        for (const QFileInfo &fd : QDir(QStringLiteral("/proc/self/fd"))
                                       .entryInfoList(QDir::NoDotAndDotDot | QDir::AllEntries |
                                                      QDir::System))
            sockets += fd.symLinkTarget().contains(QLatin1String("socket:"));
        return sockets;
    }

private:
    bool waitReadable()
    {
        pollfd p{m_fd, POLLIN, 0};
        return ::poll(&p, 1, 5000) == 1;
    }
    bool fill()
    {
        if (!waitReadable())
            return false;
        char chunk[65536];
        const auto n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n <= 0)
            return false;
        m_buffer.append(chunk, n);
        return true;
    }

    int m_fd = -1;
    bool m_connected = false;
    QByteArray m_buffer;
};
