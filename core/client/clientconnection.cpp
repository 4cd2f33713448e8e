// SPDX-License-Identifier: Apache-2.0
#include "clientconnection.h"

#include "metrics/clock.h"
#include "requesttarget.h"
#include "tls/tlsio.h"
#include "tlsclientcontext.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <unistd.h>

namespace servelab::client {

ClientConnection::ClientConnection(int epollFd, const sockaddr_storage &address,
                                   socklen_t addressLength, const PreparedRequest &request,
                                   const ClientOptions &options, std::span<char> scratch,
                                   TlsClientContext *tls)
    : m_epollFd(epollFd), m_address(address), m_addressLength(addressLength), m_request(&request),
      m_options(options), m_scratch(scratch), m_tls(tls)
{}

ClientConnection::~ClientConnection()
{
    disconnect();
}

void ClientConnection::disconnect()
{
    if (m_ssl) {
        // close_notify after a whole exchange (wrk and ab send it too); never waited for.
        if (m_tlsUp)
            SSL_shutdown(m_ssl);
        ERR_clear_error();
        SSL_free(m_ssl);
        m_ssl = nullptr;
        m_tlsUp = false;
    }
    if (m_fd && m_options.abReads) // ab's apr_pollset_remove(), one syscall it pays per connection
        epoll_ctl(m_epollFd, EPOLL_CTL_DEL, m_fd.get(), nullptr);
    m_fd.reset(); // closing also leaves the epoll set
    m_state = State::Idle;
}

ClientConnection::Outcome ClientConnection::failed(ErrorKind kind)
{
    m_tlsUp = false; // a broken connection is not shut down politely
    disconnect();
    return {Outcome::Failed, kind};
}

ClientConnection::Outcome ClientConnection::begin(std::int64_t now, const PreparedRequest *request)
{
    if (request)
        m_request = request; // else the last one again (a retry on a fresh connection)
    m_startedAt = now;
    m_connectedAt = now;
    resetExchange();
    if (m_fd) {
        m_reused = true;
        ++m_onConnection;
        m_state = State::Sending;
        return retried(send());
    }
    m_reused = false;
    return connect();
}

// The server closed a kept-alive connection before this request got an answer (an idle timeout
// or its max requests): not the server's failure. Same request, same start time, new connection.
ClientConnection::Outcome ClientConnection::retried(Outcome outcome)
{
    if (outcome.type != Outcome::Retry)
        return outcome;
    resetExchange();
    m_reused = false;
    return connect();
}

// Forgets what was sent and received of the request so far.
void ClientConnection::resetExchange()
{
    m_hangUp = false;
    m_readable = false;
    m_sent = 0;
    m_head.clear();
    m_parser.reset();
    m_headDone = false;
    m_chunks = http::ChunkedDecoder(std::numeric_limits<std::uint64_t>::max());
    m_bytesRead = 0;
    m_bodyBytes = 0;
}

ClientConnection::Outcome ClientConnection::connect()
{
    m_fd.reset(socket(m_address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!m_fd)
        return failed((errno == EMFILE || errno == ENFILE) ? ErrorKind::FdExhausted
                                                           : ErrorKind::ConnectError);
    ++m_connects;
    m_onConnection = 1;
    if (m_options.abReads)
        return connectAsAb();
    const int one = 1;
    setsockopt(m_fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    epoll_event event{};
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | (m_options.abReads ? 0u : EPOLLET);
    event.data.ptr = static_cast<EventTarget *>(this);
    m_watchingOut = true;
    if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_fd.get(), &event) != 0)
        return failed(errno == ENOMEM ? ErrorKind::FdExhausted : ErrorKind::ConnectError);
    if (::connect(m_fd.get(), reinterpret_cast<const sockaddr *>(&m_address), m_addressLength) ==
        0) {
        if (m_options.connectionTimes)
            m_connectedAt = metrics::monotonicMicros();
        return connected();
    }
    if (errno == EINPROGRESS) {
        m_state = State::Connecting;
        return {};
    }
    return failed(errno == ECONNREFUSED ? ErrorKind::ConnectRefused : ErrorKind::ConnectError);
}

// ab's connect, call for call (strace of ab 2.3 on Debian 12): connect() first, EPOLLOUT only
// while it is in progress, connect() again once writable, then EPOLLIN alone in place of it
// (ab's pollset remove and add), then the request. No TCP_NODELAY: ab sets none. The order
// matters beyond its syscalls: the request is written later after the handshake than the
// default path writes it, which decides whether the server finds it there when it accepts.
ClientConnection::Outcome ClientConnection::connectAsAb()
{
    const int result =
        ::connect(m_fd.get(), reinterpret_cast<const sockaddr *>(&m_address), m_addressLength);
    if (result != 0 && errno != EINPROGRESS)
        return failed(errno == ECONNREFUSED ? ErrorKind::ConnectRefused : ErrorKind::ConnectError);
    epoll_event event{};
    event.events = result == 0 ? EPOLLIN | EPOLLRDHUP : EPOLLOUT;
    event.data.ptr = static_cast<EventTarget *>(this);
    m_watchingOut = result != 0;
    if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_fd.get(), &event) != 0)
        return failed(errno == ENOMEM ? ErrorKind::FdExhausted : ErrorKind::ConnectError);
    if (result != 0) {
        m_state = State::Connecting;
        return {};
    }
    return connectedAsAb();
}

// The connect in progress is asked again, as ab asks (0 or EISCONN: up).
ClientConnection::Outcome ClientConnection::finishConnectAsAb()
{
    if (::connect(m_fd.get(), reinterpret_cast<const sockaddr *>(&m_address), m_addressLength) !=
            0 &&
        errno != EISCONN) {
        if (errno == ECONNREFUSED)
            return failed(ErrorKind::ConnectRefused);
        return failed(errno == ETIMEDOUT ? ErrorKind::ConnectTimeout : ErrorKind::ConnectError);
    }
    epoll_ctl(m_epollFd, EPOLL_CTL_DEL, m_fd.get(), nullptr);
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP;
    event.data.ptr = static_cast<EventTarget *>(this);
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_fd.get(), &event);
    m_watchingOut = false;
    return connectedAsAb();
}

ClientConnection::Outcome ClientConnection::connectedAsAb()
{
    if (m_options.connectionTimes)
        m_connectedAt = metrics::monotonicMicros();
    return connected();
}

ClientConnection::Outcome ClientConnection::connected()
{
    if (!m_tls) {
        m_state = State::Sending;
        return send();
    }
    m_ssl = m_tls->connect(m_fd.get());
    if (!m_ssl)
        return failed(m_tls->handshakeFailed(nullptr));
    m_tcpUpAt = metrics::monotonicMicros();
    m_state = State::Handshaking;
    return handshake();
}

// The TLS handshake, over as many wake-ups as it takes; then the request.
ClientConnection::Outcome ClientConnection::handshake()
{
    const int result = SSL_do_handshake(m_ssl);
    if (result != 1) {
        switch (SSL_get_error(m_ssl, result)) {
        case SSL_ERROR_WANT_READ: watchWritable(false); return {};
        case SSL_ERROR_WANT_WRITE: watchWritable(true); return {};
        default: return failed(m_tls->handshakeFailed(m_ssl));
        }
    }
    const std::int64_t now = metrics::monotonicMicros();
    m_tls->handshakeDone(m_ssl, now - m_tcpUpAt);
    m_tlsUp = true;
    if (m_options.connectionTimes)
        m_connectedAt = now; // ab's Connect ends with the handshake; its TLS part is kept apart
    m_state = State::Sending;
    return send();
}

// ab's reads are one per wake-up, level-triggered: the socket says when there is more. Over TLS
// the library may hold more than it gave, which no wake-up would announce: read it now.
bool ClientConnection::oneReadPerWake() const
{
    return m_options.abReads && !(m_ssl && SSL_pending(m_ssl) > 0);
}

ssize_t ClientConnection::write(const char *data, std::size_t length)
{
    return m_ssl ? tls::send(m_ssl, data, length) : ::send(m_fd.get(), data, length, MSG_NOSIGNAL);
}

ssize_t ClientConnection::read(char *into, std::size_t most)
{
    return m_ssl ? tls::receive(m_ssl, into, most) : ::recv(m_fd.get(), into, most, 0);
}

ClientConnection::Outcome ClientConnection::onEvent(unsigned events)
{
    return retried(handleEvent(events));
}

void ClientConnection::onEvent(unsigned events, std::vector<EndedExchange> &ended)
{
    const Outcome outcome = onEvent(events);
    if (outcome.type != Outcome::Pending)
        ended.push_back({m_slot, outcome});
}

ClientConnection::Outcome ClientConnection::handleEvent(unsigned events)
{
    m_hangUp = (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
    m_readable = m_readable || m_hangUp || (events & EPOLLIN);
    if (m_state == State::Idle) {
        // The server closed a kept-alive connection between requests (or said something
        // unasked): drop it, so the next request connects afresh instead of finding out late.
        if (m_readable)
            disconnect();
        return {};
    }
    if (m_state == State::Connecting) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return {};
        if (m_options.abReads)
            return finishConnectAsAb();
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(m_fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == ECONNREFUSED)
            return failed(ErrorKind::ConnectRefused);
        if (error == ETIMEDOUT)
            return failed(ErrorKind::ConnectTimeout);
        if (error != 0)
            return failed(ErrorKind::ConnectError);
        if (m_options.connectionTimes)
            m_connectedAt = metrics::monotonicMicros();
        return connected();
    }
    if (m_state == State::Handshaking)
        return handshake();
    if (m_state == State::Sending)
        return send();
    if (m_state == State::Receiving)
        return receive();
    return {};
}

ClientConnection::Outcome ClientConnection::send()
{
    const std::string &head = m_request->head;
    while (m_sent < head.size()) {
        const ssize_t n = write(head.data() + m_sent, head.size() - m_sent);
        if (n >= 0) {
            m_sent += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            watchWritable(true);
            return {};
        }
        // A kept-alive connection the server has just closed: not the server's failure.
        if (m_reused && (errno == EPIPE || errno == ECONNRESET)) {
            disconnect();
            return {Outcome::Retry};
        }
        return failed(errno == ECONNRESET ? ErrorKind::Reset : ErrorKind::WriteError);
    }
    m_state = State::Receiving;
    watchWritable(false);
    if (m_options.connectionTimes)
        m_sentAt = metrics::monotonicMicros();
    // Edge-triggered: a response that came while we were still sending (an early 414, say)
    // raised an EPOLLIN we have seen already, so look now. Otherwise its edge is still to
    // come: a recv() now would only say EAGAIN (one syscall per request saved).
    return m_readable ? receive() : Outcome{};
}

// Level-triggered (ab's reads), a writable socket would wake every wait: EPOLLOUT is asked for
// only while there is something left to send. Edge-triggered, it costs nothing and stays.
void ClientConnection::watchWritable(bool out)
{
    if (!m_options.abReads || m_watchingOut == out)
        return;
    epoll_event event{};
    event.events = EPOLLIN | EPOLLRDHUP | (out ? EPOLLOUT : 0u);
    event.data.ptr = static_cast<EventTarget *>(this);
    epoll_ctl(m_epollFd, EPOLL_CTL_MOD, m_fd.get(), &event);
    m_watchingOut = out;
}

ClientConnection::Outcome ClientConnection::receive()
{
    for (;;) {
        const ssize_t n = read(m_scratch.data(), m_scratch.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return {};
            if (m_reused && m_bytesRead == 0) {
                disconnect();
                return {Outcome::Retry};
            }
            return failed(ErrorKind::Reset);
        }
        if (n == 0) {
            if (m_bytesRead == 0) {
                if (m_reused) {
                    disconnect();
                    return {Outcome::Retry};
                }
                return failed(ErrorKind::EofBeforeResponse);
            }
            if (!m_headDone)
                return failed(ErrorKind::EofBeforeResponse);
            return consumeBody({}, true);
        }
        if (m_bytesRead == 0 && m_options.connectionTimes)
            m_firstByteAt = metrics::monotonicMicros();
        m_bytesRead += static_cast<std::uint64_t>(n);
        std::string_view bodyPart(m_scratch.data(), static_cast<std::size_t>(n));
        if (!m_headDone) {
            m_head.append(bodyPart);
            const auto status = m_parser.parse(m_head);
            if (status == ResponseParser::Status::Error)
                return failed(ErrorKind::ParseError);
            if (status == ResponseParser::Status::NeedMore) {
                if (oneReadPerWake())
                    return {}; // one recv() per wake-up
                continue;
            }
            m_headDone = true;
            bodyPart = std::string_view(m_head).substr(m_parser.headLength());
        }
        const Outcome outcome = consumeBody(bodyPart, false);
        if (outcome.type != Outcome::Pending || oneReadPerWake())
            return outcome;
        // A short read emptied the socket; the next bytes raise a new edge (saves the EAGAIN).
        // Not after a hang-up: the EOF's edge is this one, so read on to it. Not over TLS:
        // the library may hold more than it gave, and no edge would say so.
        if (static_cast<std::size_t>(n) < m_scratch.size() && m_headDone && !m_hangUp && !m_ssl)
            return {};
    }
}

ClientConnection::Outcome ClientConnection::consumeBody(std::string_view bytes, bool eof)
{
    const bool noBody = m_parser.bodyless();
    if (m_parser.chunked() && !noBody)
        return consumeChunked(bytes, eof);
    if (!bodyMatches(bytes))
        return failed(ErrorKind::WrongContent);
    m_bodyBytes += bytes.size();
    const auto length = noBody ? std::optional<std::uint64_t>(0) : m_parser.contentLength();
    if (length) {
        if (m_bodyBytes > *length)
            return failed(ErrorKind::WrongLength); // more bytes than announced: framing is lost
        if (m_bodyBytes < *length)
            return eof ? failed(ErrorKind::WrongLength) : Outcome{};
        // ab reads a response the server closes to its end: the request is over at the EOF,
        // one more wake-up later (and bytes past the body are still caught above).
        if (m_options.abReads && !eof && !m_parser.keepAlive())
            return {};
        return complete();
    }
    // No Content-Length: the body runs to the end of the connection (RFC 9112 §6.3, rule 8).
    if (!eof)
        return {};
    disconnect();
    return complete();
}

// A chunked body (RFC 9112 §7.1): the data runs are the body; the framing around them is
// checked, and a connection that ends inside it cut the body short.
ClientConnection::Outcome ClientConnection::consumeChunked(std::string_view bytes, bool eof)
{
    while (!bytes.empty()) {
        std::size_t used = 0;
        std::string_view data;
        const auto status = m_chunks.feed(bytes, &used, &data);
        if (!bodyMatches(data))
            return failed(ErrorKind::WrongContent);
        m_bodyBytes += data.size();
        bytes.remove_prefix(used);
        if (status == http::ChunkedDecoder::Status::Error)
            return failed(ErrorKind::ParseError);
        if (status == http::ChunkedDecoder::Status::Done) {
            // One request at a time: bytes after the answer are not an answer to anything.
            if (!bytes.empty())
                return failed(ErrorKind::ParseError);
            return complete();
        }
    }
    return eof ? failed(ErrorKind::WrongLength) : Outcome{};
}

// Whether `data`, the body's next bytes, are the expected ones (always, when nothing is
// expected). Bytes beyond the expected body are left to the length check.
bool ClientConnection::bodyMatches(std::string_view data) const
{
    if (!m_request->expectedBody || data.empty() || m_parser.status() != 200)
        return true;
    const std::string_view expected = *m_request->expectedBody;
    if (m_bodyBytes >= expected.size())
        return true;
    const std::size_t n = std::min<std::size_t>(data.size(), expected.size() - m_bodyBytes);
    return std::memcmp(data.data(), expected.data() + m_bodyBytes, n) == 0;
}

ClientConnection::Outcome ClientConnection::complete()
{
    const bool keep = m_fd && m_options.keepAlive && m_parser.keepAlive() &&
                      (!m_tls || m_tls->policy() == HandshakePolicy::KeepAlive) &&
                      (m_parser.contentLength() || m_parser.chunked() || m_parser.bodyless());
    if (!keep)
        disconnect();
    m_state = State::Idle;
    std::optional<std::uint64_t> expected = m_options.expectedBodyLength;
    if (m_request->expectedBody)
        expected = m_request->expectedBody->size();
    return judged(m_parser.status(), m_bodyBytes, expected);
}

} // namespace servelab::client
