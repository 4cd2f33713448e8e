// SPDX-License-Identifier: Apache-2.0
#include "h2session.h"

#include "http/httpdate.h"
#include "http/request.h"
#include "loopcontext.h"
#include "responseplanner.h"
#include "serverstats.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <span>
#include <string>

namespace servelab::server {

namespace {

constexpr std::string_view h2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
// Frame bytes queued before libnghttp2 is told to wait (NGHTTP2_ERR_WOULDBLOCK): enough for a
// socket buffer's worth of frames, little enough that one connection holds no more than that.
constexpr std::size_t queueMax = 256 * 1024;

bool equalsLower(const std::uint8_t *name, std::size_t length, std::string_view lower)
{
    return length == lower.size() && std::memcmp(name, lower.data(), length) == 0;
}

} // namespace

struct H2Session::Stream
{
    std::int32_t id = 0;
    http::Request request;
    bool headersDone = false;
    bool answered = false;
    // The response's body, from `inline` (an error page) or from the file.
    std::string inlineBody;
    std::size_t inlineSent = 0;
    OutgoingResponse out;
    std::shared_ptr<const FileMapping> mapping;
    std::uint64_t left() const { return (inlineBody.size() - inlineSent) + out.remaining; }
};

H2Session &H2Session::of(void *user)
{
    return *static_cast<H2Session *>(user);
}

bool H2Session::startsPreface(std::string_view bytes, bool *whole)
{
    const std::size_t n = std::min(bytes.size(), h2Preface.size());
    *whole = false;
    if (bytes.substr(0, n) != h2Preface.substr(0, n))
        return false;
    *whole = n == h2Preface.size();
    return true;
}

H2Session::H2Session(LoopContext &context, ResponsePlanner &planner, bool tls)
    : m_context(&context), m_planner(planner), m_tls(tls)
{
    m_planner.setHeadForm(ResponsePlanner::HeadForm::Fields); // the connection is HTTP/2 now
    const std::string &mode = context.options.mode;
    const std::string transfer = mode.substr(mode.find('+') + 1);
    if (!tls && transfer == "sendfile")
        m_body = Body::Sendfile;
    else if (!tls && transfer == "mmap")
        m_body = Body::Mmap;

    nghttp2_session_callbacks *callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_send_callback(callbacks,
                                                [](nghttp2_session *, const std::uint8_t *data,
                                                   std::size_t length, int, void *user) -> ssize_t {
                                                    H2Session &self = of(user);
                                                    if (self.m_out.queued() >= queueMax)
                                                        return NGHTTP2_ERR_WOULDBLOCK;
                                                    self.m_out.append(data, length);
                                                    return ssize_t(length);
                                                });
    nghttp2_session_callbacks_set_send_data_callback(
        callbacks,
        [](nghttp2_session *, nghttp2_frame *frame, const std::uint8_t *header, std::size_t length,
           nghttp2_data_source *source, void *user) -> int {
            H2Session &self = of(user);
            if (self.m_out.queued() >= queueMax)
                return NGHTTP2_ERR_WOULDBLOCK;
            auto &stream = *static_cast<Stream *>(source->ptr);
            self.m_out.append(header, 9);
            // No padding is ever chosen (no select_padding callback), so padlen is 0.
            std::size_t fromInline =
                std::min<std::size_t>(length, stream.inlineBody.size() - stream.inlineSent);
            if (fromInline > 0) {
                self.m_out.append(stream.inlineBody.data() + stream.inlineSent, fromInline);
                stream.inlineSent += fromInline;
            }
            const std::size_t fromFile = length - fromInline;
            if (fromFile > 0) {
                OutgoingResponse &out = stream.out;
                const auto held = self.m_streams.find(frame->hd.stream_id);
                std::shared_ptr<const void> hold;
                if (held != self.m_streams.end())
                    hold = held->second;
                switch (self.m_body) {
                case Body::Sendfile:
                    self.m_out.appendFile(out.file.fd, out.offset, fromFile, std::move(hold));
                    break;
                case Body::Mmap:
                    self.m_out.appendMapped(stream.mapping->data() + out.offset, fromFile,
                                            std::move(hold));
                    break;
                case Body::Copy:
                    if (!self.m_out.appendRead(out.file.fd, out.offset, fromFile))
                        return NGHTTP2_ERR_CALLBACK_FAILURE;
                    break;
                }
                out.offset += off_t(fromFile);
                out.remaining -= fromFile;
            }
            return 0;
        });
    nghttp2_session_callbacks_set_on_begin_headers_callback(
        callbacks, [](nghttp2_session *session, const nghttp2_frame *frame, void *user) -> int {
            if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
                return 0;
            H2Session &self = of(user);
            auto stream = std::make_shared<Stream>();
            stream->id = frame->hd.stream_id;
            stream->request.target.clear();
            nghttp2_session_set_stream_user_data(session, stream->id, stream.get());
            self.m_streams.emplace(stream->id, std::move(stream));
            AtomicServerStats::bump(self.m_context->stats.h2Streams);
            return 0;
        });
    nghttp2_session_callbacks_set_on_header_callback(
        callbacks,
        [](nghttp2_session *session, const nghttp2_frame *frame, const std::uint8_t *name,
           std::size_t nameLength, const std::uint8_t *value, std::size_t valueLength, std::uint8_t,
           void *) -> int {
            auto *stream = static_cast<Stream *>(
                nghttp2_session_get_stream_user_data(session, frame->hd.stream_id));
            if (!stream || frame->hd.type != NGHTTP2_HEADERS)
                return 0;
            const std::string_view text(reinterpret_cast<const char *>(value), valueLength);
            http::Request &r = stream->request;
            if (equalsLower(name, nameLength, ":method")) {
                r.method = text == "GET"       ? http::Method::Get
                           : text == "HEAD"    ? http::Method::Head
                           : text == "OPTIONS" ? http::Method::Options
                                               : http::Method::Other;
            } else if (equalsLower(name, nameLength, ":path")) {
                r.target.assign(text);
            } else if (equalsLower(name, nameLength, "if-modified-since")) {
                r.ifModifiedSince = http::parseHttpDate(text);
            } else if (equalsLower(name, nameLength, "range")) {
                r.range.assign(text);
            } else if (equalsLower(name, nameLength, "content-length")) {
                std::from_chars(text.data(), text.data() + text.size(), r.contentLength);
            }
            return 0;
        });
    nghttp2_session_callbacks_set_on_frame_recv_callback(
        callbacks, [](nghttp2_session *session, const nghttp2_frame *frame, void *user) -> int {
            H2Session &self = of(user);
            auto &stats = self.m_context->stats;
            AtomicServerStats::bump(stats.h2Frames);
            if (frame->hd.type == NGHTTP2_RST_STREAM)
                AtomicServerStats::bump(stats.h2Resets);
            else if (frame->hd.type == NGHTTP2_GOAWAY)
                AtomicServerStats::bump(stats.h2Goaways);
            if ((frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) ||
                !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
                return 0;
            auto *stream = static_cast<Stream *>(
                nghttp2_session_get_stream_user_data(session, frame->hd.stream_id));
            if (stream && !stream->answered)
                self.respond(*stream);
            return 0;
        });
    nghttp2_session_callbacks_set_on_frame_send_callback(
        callbacks, [](nghttp2_session *, const nghttp2_frame *frame, void *user) -> int {
            auto &stats = of(user).m_context->stats;
            if (frame->hd.type == NGHTTP2_RST_STREAM)
                AtomicServerStats::bump(stats.h2Resets);
            else if (frame->hd.type == NGHTTP2_GOAWAY)
                AtomicServerStats::bump(stats.h2Goaways);
            return 0;
        });
    nghttp2_session_callbacks_set_on_stream_close_callback(
        callbacks, [](nghttp2_session *, std::int32_t id, std::uint32_t, void *user) -> int {
            H2Session &self = of(user);
            const auto found = self.m_streams.find(id);
            if (found == self.m_streams.end())
                return 0;
            if (found->second->answered) // a response ended, whole or reset: as over HTTP/1.1
                AtomicServerStats::bump(self.m_context->stats.downloadsFinished);
            self.m_streams.erase(found); // a payload still queued holds the stream
            return 0;
        });

    nghttp2_option *option = nullptr;
    nghttp2_option_new(&option);
    // The peer's SETTINGS_MAX_CONCURRENT_STREAMS is what we announce; nothing more is enforced
    // on our side than libnghttp2 already does (a stream over it is refused).
    nghttp2_session_server_new2(&m_session, callbacks, this, option);
    nghttp2_option_del(option);
    nghttp2_session_callbacks_del(callbacks);
    submitSettings();
}

H2Session::~H2Session()
{
    // Responses the connection's end cut off (libnghttp2 closes no stream as it is deleted).
    for (const auto &[id, stream] : m_streams)
        if (stream->answered)
            AtomicServerStats::bump(m_context->stats.downloadsFinished);
    nghttp2_session_del(m_session);
}

bool H2Session::submitSettings()
{
    const ServerOptions &o = m_context->options;
    const nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, std::uint32_t(o.h2MaxStreams)},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, std::uint32_t(o.h2Window)},
        {NGHTTP2_SETTINGS_MAX_FRAME_SIZE, std::uint32_t(o.h2MaxFrame)},
    };
    return nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings,
                                   sizeof settings / sizeof settings[0]) == 0;
}

bool H2Session::receive(const char *data, std::size_t length)
{
    const ssize_t used =
        nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t *>(data), length);
    if (used < 0) {
        // Fatal to the session (a bad preface, out of memory): nothing more is read. A GOAWAY
        // is owed where libnghttp2 can still frame one.
        if (used == NGHTTP2_ERR_BAD_CLIENT_MAGIC)
            return false;
        nghttp2_session_terminate_session(m_session, NGHTTP2_PROTOCOL_ERROR);
        return false;
    }
    return true;
}

WriteStatus H2Session::send(int socket, SSL *ssl, std::uint64_t *sent)
{
    const std::uint64_t budget = m_context->options.sendfileChunk;
    const std::uint64_t before = *sent;
    for (;;) {
        if (!m_out.empty()) {
            const WriteStatus status = m_out.flush(socket, ssl, sent);
            if (status != WriteStatus::Done)
                return status;
        }
        if (*sent - before >= budget && nghttp2_session_want_write(m_session))
            return WriteStatus::Yield; // the thread's other connections get their turn
        if (nghttp2_session_send(m_session) != 0)
            return WriteStatus::Error;
        if (m_out.empty()) {
            countStall();
            return WriteStatus::Done;
        }
    }
}

// Nothing could be framed while a response still has bytes to go: the peer's window is shut.
void H2Session::countStall()
{
    bool waiting = false;
    for (const auto &[id, stream] : m_streams)
        if (stream->answered && stream->left() > 0) {
            waiting = true;
            break;
        }
    if (waiting && !m_stalled)
        AtomicServerStats::bump(m_context->stats.h2WindowStalls);
    m_stalled = waiting;
}

bool H2Session::finished() const
{
    return m_out.empty() && !nghttp2_session_want_read(m_session) &&
           !nghttp2_session_want_write(m_session);
}

void H2Session::goAway()
{
    if (m_goingAway)
        return;
    m_goingAway = true;
    nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(m_session), NGHTTP2_NO_ERROR,
                          nullptr, 0);
}

// The planner answers as it does over HTTP/1.1, its head as fields (not written as HTTP/1.1
// bytes): each becomes an HTTP/2 field, lower-case, less the connection-specific ones.
void H2Session::respond(Stream &stream)
{
    stream.answered = true;
    AtomicServerStats::bump(m_context->stats.downloadsStarted); // each response, as over HTTP/1.1
    http::Request &request = stream.request;
    request.versionMinor = 1;
    request.keepAlive = true;
    ResponsePlan plan;
    m_planner.plan(request, &plan);
    http::ResponseFields listed;
    http::listResponseFields(plan.head, m_context->date.now(), true, &listed);
    // libnghttp2 copies the values (the date's buffer changes each second, the rest is this
    // frame's); the names are literals that outlive the session.
    const auto nv = [](std::string_view name, std::string_view value) {
        return nghttp2_nv{reinterpret_cast<std::uint8_t *>(const_cast<char *>(name.data())),
                          reinterpret_cast<std::uint8_t *>(const_cast<char *>(value.data())),
                          name.size(), value.size(), NGHTTP2_NV_FLAG_NO_COPY_NAME};
    };
    char status[4];
    const auto digits = std::to_chars(status, status + sizeof status, plan.head.status).ptr;
    std::array<nghttp2_nv, http::ResponseFields::most + 1> fields;
    std::size_t count = 0;
    fields[count++] = nv(":status", std::string_view(status, std::size_t(digits - status)));
    for (const auto &field : std::span(listed.fields, listed.count))
        fields[count++] = nv(field.lower, field.value);
    stream.inlineBody = std::move(plan.inlineBody);
    stream.out = std::move(plan.out);
    if (stream.out.remaining > 0 && m_body == Body::Mmap) {
        stream.mapping = m_context->transfer.mapping(stream.out.file);
        if (!stream.mapping)
            m_body = Body::Copy; // mmap() failed: this connection reads instead
    }
    nghttp2_data_provider provider{};
    provider.source.ptr = &stream;
    provider.read_callback = [](nghttp2_session *, std::int32_t, std::uint8_t *, std::size_t most,
                                std::uint32_t *flags, nghttp2_data_source *source,
                                void *) -> ssize_t {
        const auto &s = *static_cast<Stream *>(source->ptr);
        const std::uint64_t left = s.left();
        const std::size_t n = std::size_t(std::min<std::uint64_t>(most, left));
        *flags |= NGHTTP2_DATA_FLAG_NO_COPY;
        if (n == left)
            *flags |= NGHTTP2_DATA_FLAG_EOF;
        return ssize_t(n);
    };
    const bool body = stream.left() > 0;
    nghttp2_submit_response(m_session, stream.id, fields.data(), count, body ? &provider : nullptr);
    if (m_planner.spent())
        goAway(); // --max-requests: the connection ends once what it took is answered
}

} // namespace servelab::server
