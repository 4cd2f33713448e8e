// SPDX-License-Identifier: Apache-2.0
#include "h2clientsession.h"

#include "h2stream.h"
#include "metrics/clock.h"
#include "requesttarget.h"
#include "tls/tlsio.h"
#include "tlsclientcontext.h"

#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string_view>
#include <sys/epoll.h>

namespace servelab::client {

namespace {

// Frames gathered before a write: a wake-up's answers (SETTINGS ack, WINDOW_UPDATEs, the next
// requests' HEADERS) go in one send().
constexpr std::size_t gatherBytes = 64 * 1024;

std::string_view text(const std::uint8_t *data, std::size_t length)
{
    return {reinterpret_cast<const char *>(data), length};
}

nghttp2_nv field(std::string_view name, std::string_view value)
{
    // Both outlive the stream (the target's and the options' strings): libnghttp2 keeps the
    // pointers, no copies.
    return {reinterpret_cast<std::uint8_t *>(const_cast<char *>(name.data())),
            reinterpret_cast<std::uint8_t *>(const_cast<char *>(value.data())), name.size(),
            value.size(), NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE};
}

H2Stream *streamOf(nghttp2_session *session, std::int32_t id)
{
    return static_cast<H2Stream *>(nghttp2_session_get_stream_user_data(session, id));
}

} // namespace

// libnghttp2's callbacks, with access to the session and its streams.
struct H2ClientCallbacks
{
    static H2ClientSession &of(void *user) { return *static_cast<H2ClientSession *>(user); }

    static int onHeader(nghttp2_session *session, const nghttp2_frame *frame,
                        const std::uint8_t *name, std::size_t nameLength, const std::uint8_t *value,
                        std::size_t valueLength, std::uint8_t, void *)
    {
        H2Stream *s = streamOf(session, frame->hd.stream_id);
        if (!s || frame->hd.type != NGHTTP2_HEADERS)
            return 0;
        const std::string_view n = text(name, nameLength);
        const std::string_view v = text(value, valueLength);
        if (n == ":status") {
            std::from_chars(v.data(), v.data() + v.size(), s->m_status);
        } else if (n == "content-length") {
            std::uint64_t length = 0;
            if (std::from_chars(v.data(), v.data() + v.size(), length).ec == std::errc())
                s->m_contentLength = length;
        }
        return 0;
    }

    static int onFrame(nghttp2_session *session, const nghttp2_frame *frame, void *user)
    {
        H2ClientSession &self = of(user);
        if (frame->hd.type == NGHTTP2_GOAWAY) {
            self.m_goaway = true;
            self.m_lastStreamId = frame->goaway.last_stream_id;
            return 0;
        }
        H2Stream *s = frame->hd.stream_id ? streamOf(session, frame->hd.stream_id) : nullptr;
        if (!s)
            return 0;
        s->m_bytesRead += frame->hd.length + 9; // the frame's header counts as the wire's
        if (frame->hd.type == NGHTTP2_HEADERS && !s->m_headers) {
            s->m_headers = true;
            if (self.m_options.connectionTimes)
                s->m_firstByteAt = metrics::monotonicMicros();
        } else if (frame->hd.type == NGHTTP2_RST_STREAM) {
            s->m_resetByPeer = true;
        }
        return 0;
    }

    static int onFrameSent(nghttp2_session *session, const nghttp2_frame *frame, void *user)
    {
        if (frame->hd.type != NGHTTP2_HEADERS || !of(user).m_options.connectionTimes)
            return 0;
        if (H2Stream *s = streamOf(session, frame->hd.stream_id))
            s->m_sentAt = metrics::monotonicMicros();
        return 0;
    }

    static int onData(nghttp2_session *session, std::uint8_t, std::int32_t id,
                      const std::uint8_t *data, std::size_t length, void *)
    {
        H2Stream *s = streamOf(session, id);
        if (!s)
            return 0;
        const auto &expected = s->m_request->expectedBody;
        if (expected && s->m_status == 200 && s->m_bodyBytes < expected->size()) {
            const std::size_t n = std::min(length, expected->size() - s->m_bodyBytes);
            if (std::memcmp(data, expected->data() + s->m_bodyBytes, n) != 0)
                s->m_wrongContent = true;
        }
        s->m_bodyBytes += length;
        return 0;
    }

    static int onClose(nghttp2_session *session, std::int32_t id, std::uint32_t code, void *user)
    {
        H2ClientSession &self = of(user);
        H2Stream *s = streamOf(session, id);
        if (!s || s->m_state != H2Stream::State::Active)
            return 0; // given up already (a timeout, the run's end)
        s->m_state = H2Stream::State::Idle;
        s->m_id = 0;
        // Streams the server's GOAWAY says it never took go again on a new connection, as a
        // request on a kept-alive HTTP/1.1 connection the server closed: once the connection
        // has answered something (a server that takes nothing is failing, not closing).
        if (self.m_goaway && id > self.m_lastStreamId) {
            if (self.m_doneOnConnection > 0)
                self.requeue(*s);
            else
                self.ended(*s, {ClientExchange::Outcome::Failed, ErrorKind::H2Goaway});
            return 0;
        }
        if (code == NGHTTP2_NO_ERROR) {
            ++self.m_doneOnConnection;
            self.ended(*s, s->verdict());
            return 0;
        }
        ErrorKind kind = ErrorKind::ParseError; // this side found the server's frames wrong
        if (code == NGHTTP2_FLOW_CONTROL_ERROR)
            kind = ErrorKind::H2FlowControl;
        else if (s->m_resetByPeer)
            kind = ErrorKind::H2Reset;
        else if (self.m_goaway)
            kind = ErrorKind::H2Goaway;
        self.ended(*s, {ClientExchange::Outcome::Failed, kind});
        return 0;
    }

    static nghttp2_session_callbacks *make()
    {
        nghttp2_session_callbacks *c = nullptr;
        nghttp2_session_callbacks_new(&c);
        nghttp2_session_callbacks_set_on_header_callback(c, onHeader);
        nghttp2_session_callbacks_set_on_frame_recv_callback(c, onFrame);
        nghttp2_session_callbacks_set_on_frame_send_callback(c, onFrameSent);
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(c, onData);
        nghttp2_session_callbacks_set_on_stream_close_callback(c, onClose);
        return c;
    }
};

H2ClientSession::H2ClientSession(int epollFd, const RequestTarget &target,
                                 const ClientOptions &options, std::span<char> scratch,
                                 TlsClientContext *tls, std::vector<H2ClientSession *> &dirty)
    : m_epollFd(epollFd), m_target(target), m_options(options), m_scratch(scratch), m_tls(tls),
      m_dirtyList(dirty)
{}

H2ClientSession::~H2ClientSession()
{
    m_ended = nullptr;
    closeSocket();
}

int H2ClientSession::busyStreams() const
{
    return static_cast<int>(
        std::count_if(m_streams.begin(), m_streams.end(),
                      [](const H2Stream *s) { return s->m_state == H2Stream::State::Active; }));
}

void H2ClientSession::markDirty()
{
    if (m_dirty)
        return;
    m_dirty = true;
    m_dirtyList.push_back(this);
}

ClientExchange::Outcome H2ClientSession::start(H2Stream &stream)
{
    stream.m_state = H2Stream::State::Queued;
    if (m_state == State::Up && !m_draining && !m_goaway) {
        submit(stream);
        return {};
    }
    if (m_state != State::Closed)
        return {}; // it goes once the connection is up, or on the next one
    // A closed connection has no other stream waiting (each began on it and started it), so
    // a connect that fails at once is this stream's end alone.
    std::vector<EndedExchange> ended;
    m_ended = &ended;
    if (const auto failure = connect())
        lost(*failure);
    m_ended = nullptr;
    return ended.empty() ? ClientExchange::Outcome{} : ended.front().outcome;
}

void H2ClientSession::submit(H2Stream &stream)
{
    static constexpr std::string_view get = "GET";
    const std::string_view scheme = m_tls ? "https" : "http";
    nghttp2_nv fields[6] = {field(":method", get), field(":scheme", scheme),
                            field(":authority", m_target.authority),
                            field(":path", stream.m_request->path)};
    std::size_t count = 4;
    if (m_options.abHeaders) {
        fields[count++] = field("user-agent", "ServeLab");
        fields[count++] = field("accept", "*/*");
    }
    const std::int32_t id =
        nghttp2_submit_request(m_session, nullptr, fields, count, nullptr, &stream);
    if (id < 0) {
        // Stream ids ran out (2^31 of them) or the server is going away: a new connection.
        m_draining = true;
        markDirty();
        return;
    }
    stream.m_id = id;
    stream.m_state = H2Stream::State::Active;
    ++m_onConnection;
    markDirty();
}

void H2ClientSession::cancel(H2Stream &stream)
{
    const bool active = stream.m_state == H2Stream::State::Active;
    stream.m_state = H2Stream::State::Idle;
    if (active && m_session) {
        nghttp2_session_set_stream_user_data(m_session, stream.m_id, nullptr);
        nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, stream.m_id, NGHTTP2_CANCEL);
        markDirty();
    }
    stream.m_id = 0;
    // A connect nobody waits for any more (every stream timed out on it) is dropped.
    if (connecting() && std::none_of(m_streams.begin(), m_streams.end(),
                                     [](const H2Stream *s) { return s->busy(); }))
        closeSocket();
}

void H2ClientSession::closeWhenIdle()
{
    if (!m_fd)
        return;
    m_draining = true;
    markDirty(); // settle() closes it when its last stream ends
}

std::optional<ErrorKind> H2ClientSession::connect()
{
    const sockaddr_storage &address = m_target.address;
    m_fd.reset(socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!m_fd)
        return (errno == EMFILE || errno == ENFILE) ? ErrorKind::FdExhausted
                                                    : ErrorKind::ConnectError;
    ++m_connects;
    const int one = 1;
    setsockopt(m_fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    epoll_event event{};
    event.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    event.data.ptr = static_cast<EventTarget *>(this);
    if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_fd.get(), &event) != 0)
        return errno == ENOMEM ? ErrorKind::FdExhausted : ErrorKind::ConnectError;
    m_state = State::Connecting;
    if (::connect(m_fd.get(), reinterpret_cast<const sockaddr *>(&address),
                  m_target.addressLength) == 0) {
        connected();
        return std::nullopt;
    }
    if (errno == EINPROGRESS)
        return std::nullopt;
    return errno == ECONNREFUSED ? ErrorKind::ConnectRefused : ErrorKind::ConnectError;
}

void H2ClientSession::connected()
{
    if (!m_tls)
        return up();
    m_ssl = m_tls->connect(m_fd.get());
    if (!m_ssl)
        return lost(m_tls->handshakeFailed(nullptr));
    m_tcpUpAt = metrics::monotonicMicros();
    m_state = State::Handshaking;
    handshake();
}

void H2ClientSession::handshake()
{
    const int result = SSL_do_handshake(m_ssl);
    if (result != 1) {
        const int error = SSL_get_error(m_ssl, result);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE)
            return;
        // A server that takes no h2 may end the handshake for it (nginx's no_application_protocol
        // alert) rather than choose http/1.1: that is its answer to the protocol, not TLS failing.
        const bool noH2 =
            ERR_GET_REASON(ERR_peek_last_error()) == SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL;
        const ErrorKind kind = m_tls->handshakeFailed(m_ssl); // keeps OpenSSL's reason
        return lost(noH2 ? ErrorKind::H2Unsupported : kind);
    }
    m_tls->handshakeDone(m_ssl, metrics::monotonicMicros() - m_tcpUpAt);
    m_tlsUp = true;
    const unsigned char *chosen = nullptr;
    unsigned int length = 0;
    SSL_get0_alpn_selected(m_ssl, &chosen, &length);
    if (std::string_view(reinterpret_cast<const char *>(chosen), chosen ? length : 0) != "h2")
        return lost(ErrorKind::H2Unsupported);
    up();
}

void H2ClientSession::up()
{
    nghttp2_session_client_new(
        &m_session,
        [] {
            static nghttp2_session_callbacks *const shared = H2ClientCallbacks::make();
            return shared;
        }(),
        this);
    const nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, m_options.h2Window},
    };
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0,
                                          static_cast<std::int32_t>(m_options.h2Window));
    m_state = State::Up;
    m_firstRead = true;
    const std::int64_t now = metrics::monotonicMicros();
    for (H2Stream *s : m_streams) {
        if (s->m_state != H2Stream::State::Queued)
            continue;
        if (m_options.connectionTimes)
            s->m_connectedAt = now;
        submit(*s);
    }
    markDirty(); // the preface and SETTINGS go out even with no request yet
}

void H2ClientSession::onEvent(unsigned events, std::vector<EndedExchange> &ended)
{
    m_ended = &ended;
    const bool hangUp = (events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
    if (m_state == State::Connecting && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(m_fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == 0)
            connected();
        else
            lost(error == ECONNREFUSED ? ErrorKind::ConnectRefused
                 : error == ETIMEDOUT  ? ErrorKind::ConnectTimeout
                                       : ErrorKind::ConnectError);
    } else if (m_state == State::Handshaking) {
        handshake();
        if (m_state == State::Up)
            readAll(hangUp); // what came with the handshake's last flight, no edge to follow
    } else if (m_state == State::Up) {
        if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
            readAll(hangUp);
        // What the frames read call for (SETTINGS ack, WINDOW_UPDATE) goes out with the
        // requests the reactor now begins in place of the answered ones: one write.
        if (m_state == State::Up)
            markDirty();
    }
    settle();
    m_ended = nullptr;
}

void H2ClientSession::flush(std::vector<EndedExchange> &ended)
{
    m_dirty = false;
    m_ended = &ended;
    if (m_state == State::Up)
        writeAll();
    settle();
    m_ended = nullptr;
}

ssize_t H2ClientSession::write(const char *data, std::size_t length)
{
    return m_ssl ? tls::send(m_ssl, data, length) : ::send(m_fd.get(), data, length, MSG_NOSIGNAL);
}

ssize_t H2ClientSession::read(char *into, std::size_t most)
{
    return m_ssl ? tls::receive(m_ssl, into, most) : ::recv(m_fd.get(), into, most, 0);
}

void H2ClientSession::readAll(bool hangUp)
{
    for (;;) {
        const ssize_t n = read(m_scratch.data(), m_scratch.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            return lost(ErrorKind::Reset);
        }
        if (n == 0)
            return lost(ErrorKind::EofBeforeResponse);
        const std::string_view bytes(m_scratch.data(), static_cast<std::size_t>(n));
        if (m_firstRead && bytes.starts_with("HTTP/1."))
            return lost(ErrorKind::H2Unsupported); // an HTTP/1.x server's 400 to the preface
        m_firstRead = false;
        if (nghttp2_session_mem_recv(
                m_session, reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()) < 0)
            return lost(ErrorKind::ParseError);
        // A short read emptied the socket: the next bytes raise a new edge. Not after a
        // hang-up (read on to the EOF), not over TLS (the library may hold more).
        if (bytes.size() < m_scratch.size() && !hangUp && !m_ssl)
            return;
    }
}

void H2ClientSession::writeAll()
{
    for (;;) {
        if (m_outSent == m_out.size()) {
            m_out.clear();
            m_outSent = 0;
            while (m_out.size() < gatherBytes) {
                const std::uint8_t *data = nullptr;
                const ssize_t n = nghttp2_session_mem_send(m_session, &data);
                if (n < 0)
                    return lost(ErrorKind::ParseError);
                if (n == 0)
                    break;
                m_out.append(reinterpret_cast<const char *>(data), static_cast<std::size_t>(n));
            }
            if (m_out.empty())
                return;
        }
        const ssize_t n = write(m_out.data() + m_outSent, m_out.size() - m_outSent);
        if (n >= 0) {
            m_outSent += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return; // EPOLLOUT's edge says when to go on
        return lost(errno == ECONNRESET || errno == EPIPE ? ErrorKind::Reset
                                                          : ErrorKind::WriteError);
    }
}

void H2ClientSession::settle()
{
    if (m_state == State::Up) {
        const bool done = (m_draining || m_goaway) && busyStreams() == 0;
        const bool over = !nghttp2_session_want_read(m_session) &&
                          !nghttp2_session_want_write(m_session) && m_outSent == m_out.size();
        if (done || over) {
            if (!m_goaway) { // a polite end: our GOAWAY, written if the socket takes it now
                nghttp2_session_terminate_session(m_session, NGHTTP2_NO_ERROR);
                writeAll();
            }
            // Drained, nothing ends here; else the session gave up (a protocol error it
            // answered with GOAWAY) and what is in flight ends with it.
            lost(m_goaway ? ErrorKind::H2Goaway : ErrorKind::ParseError);
        }
    }
    if (m_state != State::Closed || !m_ended)
        return;
    if (std::none_of(m_streams.begin(), m_streams.end(),
                     [](const H2Stream *s) { return s->m_state == H2Stream::State::Queued; }))
        return;
    if (const auto failure = connect())
        lost(*failure);
}

void H2ClientSession::lost(ErrorKind kind)
{
    const bool starting = m_state != State::Up;
    for (H2Stream *s : m_streams) {
        if (s->m_state == H2Stream::State::Queued && starting) {
            s->m_state = H2Stream::State::Idle;
            ended(*s, {ClientExchange::Outcome::Failed, kind});
        } else if (s->m_state == H2Stream::State::Active) {
            if (m_session)
                nghttp2_session_set_stream_user_data(m_session, s->m_id, nullptr);
            s->m_state = H2Stream::State::Idle;
            s->m_id = 0;
            // The server closed a connection it had answered on before this stream got a
            // byte: not its failure; the request goes again, on a new connection.
            if (m_doneOnConnection > 0 && s->m_bytesRead == 0 &&
                (kind == ErrorKind::EofBeforeResponse || kind == ErrorKind::Reset))
                requeue(*s);
            else
                ended(*s, {ClientExchange::Outcome::Failed,
                           m_goaway && kind == ErrorKind::EofBeforeResponse ? ErrorKind::H2Goaway
                                                                            : kind});
        }
    }
    closeSocket();
}

void H2ClientSession::requeue(H2Stream &stream)
{
    stream.resetAnswer();
    stream.m_state = H2Stream::State::Queued;
}

void H2ClientSession::ended(H2Stream &stream, ClientExchange::Outcome outcome)
{
    if (m_ended)
        m_ended->push_back({stream.slot(), outcome});
}

void H2ClientSession::closeSocket()
{
    if (m_session) {
        nghttp2_session *session = m_session;
        m_session = nullptr;
        for (H2Stream *s : m_streams)
            if (s->m_state == H2Stream::State::Active)
                nghttp2_session_set_stream_user_data(session, s->m_id, nullptr);
        nghttp2_session_del(session);
    }
    if (m_ssl) {
        if (m_tlsUp)
            SSL_shutdown(m_ssl);
        ERR_clear_error();
        SSL_free(m_ssl);
        m_ssl = nullptr;
        m_tlsUp = false;
    }
    m_fd.reset();
    m_state = State::Closed;
    m_out.clear();
    m_outSent = 0;
    m_draining = false;
    m_goaway = false;
    m_lastStreamId = 0;
    m_onConnection = 0;
    m_doneOnConnection = 0;
}

} // namespace servelab::client
