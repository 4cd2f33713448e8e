// SPDX-License-Identifier: Apache-2.0
#pragma once

// An HTTP/2 client for the server tests (h2c, prior knowledge), on libnghttp2's client session:
// every path requested at once on streams side by side over one connection, each response's
// status and body kept. Windows are opened wide, so that flow control never holds a response.

#include <QByteArray>
#include <QList>
#include <QMap>

#include <nghttp2/nghttp2.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

class H2TestClient
{
public:
    struct Response
    {
        int status = 0;
        QMap<QByteArray, QByteArray> fields; // the other header fields, by name
        QByteArray body;
        bool closed = false;
        std::uint32_t error = 0; // the stream's RST_STREAM code, 0 for none
    };

    explicit H2TestClient(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    H2TestClient(const H2TestClient &) = delete;
    H2TestClient &operator=(const H2TestClient &) = delete;
    ~H2TestClient()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool connected() const { return m_fd >= 0; }

    // `method` for every path; false if the connection failed or `timeoutMs` passed first. Once
    // per client: a connection carries one session.
    bool fetch(const QList<QByteArray> &paths, QList<Response> *responses,
               const QByteArray &method = "GET", int timeoutMs = 30000)
    {
        nghttp2_session_callbacks *callbacks = nullptr;
        nghttp2_session_callbacks_new(&callbacks);
        nghttp2_session_callbacks_set_on_header_callback(
            callbacks,
            [](nghttp2_session *, const nghttp2_frame *frame, const std::uint8_t *name,
               std::size_t nameLength, const std::uint8_t *value, std::size_t valueLength,
               std::uint8_t, void *user) -> int {
                const QByteArray text(reinterpret_cast<const char *>(value), int(valueLength));
                Response &r = self(user).m_streams[frame->hd.stream_id];
                if (nameLength == 7 && std::memcmp(name, ":status", 7) == 0)
                    r.status = text.toInt();
                else
                    r.fields.insert(QByteArray(reinterpret_cast<const char *>(name),
                                               int(nameLength)),
                                    text);
                return 0;
            });
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(
            callbacks,
            [](nghttp2_session *, std::uint8_t, std::int32_t id, const std::uint8_t *data,
               std::size_t length, void *user) -> int {
                self(user).m_streams[id].body.append(reinterpret_cast<const char *>(data),
                                                     qsizetype(length));
                return 0;
            });
        nghttp2_session_callbacks_set_on_stream_close_callback(
            callbacks, [](nghttp2_session *, std::int32_t id, std::uint32_t error, void *user) {
                auto &r = self(user).m_streams[id];
                r.closed = true;
                r.error = error;
                return 0;
            });
        nghttp2_session *session = nullptr;
        nghttp2_session_client_new(&session, callbacks, this);
        nghttp2_session_callbacks_del(callbacks);
        const nghttp2_settings_entry settings[] = {
            {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 0x7fffffff},
            {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000},
        };
        nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, 2);
        nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE, 0, 0x7fffffff);
        QList<std::int32_t> ids;
        for (const QByteArray &path : paths) {
            const auto field = [](const char *name, const QByteArray &value) {
                return nghttp2_nv{(std::uint8_t *)name, (std::uint8_t *)value.constData(),
                                  std::strlen(name), std::size_t(value.size()),
                                  NGHTTP2_NV_FLAG_NONE};
            };
            // The values outlive the call (nghttp2 copies them there): no temporaries.
            static const QByteArray scheme("http"), authority("127.0.0.1");
            const nghttp2_nv fields[] = {field(":method", method), field(":scheme", scheme),
                                         field(":authority", authority), field(":path", path)};
            ids.append(nghttp2_submit_request(session, nullptr, fields, 4, nullptr, nullptr));
        }
        const bool ok = exchange(session, ids, timeoutMs);
        nghttp2_session_del(session);
        responses->clear();
        for (std::int32_t id : ids)
            responses->append(m_streams[id]);
        return ok;
    }

private:
    static H2TestClient &self(void *user) { return *static_cast<H2TestClient *>(user); }

    bool exchange(nghttp2_session *session, const QList<std::int32_t> &ids, int timeoutMs)
    {
        const auto allClosed = [&] {
            for (std::int32_t id : ids)
                if (!m_streams[id].closed)
                    return false;
            return true;
        };
        char buffer[65536];
        for (int waited = 0; !allClosed();) {
            const std::uint8_t *out = nullptr;
            for (ssize_t n; (n = nghttp2_session_mem_send(session, &out)) > 0;)
                for (ssize_t sent = 0; sent < n;) {
                    const ssize_t w = ::send(m_fd, out + sent, std::size_t(n - sent), MSG_NOSIGNAL);
                    if (w <= 0)
                        return false;
                    sent += w;
                }
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 100) == 0) {
                if ((waited += 100) >= timeoutMs)
                    return false;
                continue;
            }
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n <= 0)
                return allClosed();
            if (nghttp2_session_mem_recv(session, reinterpret_cast<std::uint8_t *>(buffer),
                                         std::size_t(n)) < 0)
                return false;
        }
        return true;
    }

    int m_fd = -1;
    std::map<std::int32_t, Response> m_streams;
};
