// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "loopback.h"

#include <QByteArray>
#include <QDir>
#include <QFileInfo>

#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

// A deliberately plain blocking HTTP/1.1 client for the server tests: it must not trust the
// code it checks (not ServeLab's client, not Qt's), and it never waits more than 5 s for a byte.
// With `tls`, the same over OpenSSL's blocking calls (the certificate is not checked: the
// server's is not what these tests are about).
class RawHttpConnection
{
public:
    explicit RawHttpConnection(quint16 port, bool tls = false)
    {
        m_fd = connectLoopback(port);
        m_connected = m_fd >= 0;
        timeval deadline{5, 0}; // also for tests that recv() on fd() themselves
        setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &deadline, sizeof deadline);
        setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &deadline, sizeof deadline);
        if (tls && m_connected) {
            static SSL_CTX *const context = SSL_CTX_new(TLS_client_method());
            m_ssl = SSL_new(context);
            SSL_set_fd(m_ssl, m_fd);
            m_connected = SSL_connect(m_ssl) == 1;
        }
    }
    ~RawHttpConnection()
    {
        SSL_free(m_ssl);
        ::close(m_fd);
    }
    RawHttpConnection(const RawHttpConnection &) = delete;
    RawHttpConnection &operator=(const RawHttpConnection &) = delete;

    bool connected() const { return m_connected; }
    int fd() const { return m_fd; }

    // Whether every byte went out (false too when the peer has gone: dribblers use that).
    [[nodiscard]] bool send(const QByteArray &bytes)
    {
        if (m_ssl)
            return bytes.isEmpty() ||
                   SSL_write(m_ssl, bytes.data(), int(bytes.size())) == bytes.size();
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
        return waitReadable() && read(&c, 1) == 0;
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
        const ssize_t n = read(&c, 1);
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
        for (const QFileInfo &fd :
             QDir(QStringLiteral("/proc/self/fd"))
                 .entryInfoList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System))
            sockets += fd.symLinkTarget().contains(QLatin1String("socket:"));
        return sockets;
    }

private:
    bool waitReadable()
    {
        if (m_ssl && SSL_pending(m_ssl) > 0)
            return true;
        pollfd p{m_fd, POLLIN, 0};
        return ::poll(&p, 1, 5000) == 1;
    }
    // recv()'s results over either: 0 at the peer's end (close_notify, or a FIN without it).
    ssize_t read(char *into, int most)
    {
        if (!m_ssl)
            return ::recv(m_fd, into, size_t(most), 0);
        const int n = SSL_read(m_ssl, into, most);
        if (n > 0)
            return n;
        const int error = SSL_get_error(m_ssl, n);
        if (error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0))
            return 0;
        if (error != SSL_ERROR_SYSCALL)
            errno = ECONNRESET;
        return -1;
    }
    bool fill()
    {
        if (!waitReadable())
            return false;
        char chunk[65536];
        const auto n = read(chunk, sizeof chunk);
        if (n <= 0)
            return false;
        m_buffer.append(chunk, n);
        return true;
    }

    int m_fd = -1;
    SSL *m_ssl = nullptr;
    bool m_connected = false;
    QByteArray m_buffer;
};
