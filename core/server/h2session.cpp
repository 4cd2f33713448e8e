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
#include <vector>

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
    // The response: its header fields (names lower-case), and the body from `inline` (an error
    // page) or from the file.
    std::string fieldBytes;
    std::vector<nghttp2_nv> fields;
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

// The planner answers as it does over HTTP/1.1; its head is taken apart into fields here (the
// status line's code, then each "Name: value" in lower case, less HTTP/1.1's connection
// fields), and what follows the head is an error page's body.
void H2Session::respond(Stream &stream)
{
    stream.answered = true;
    AtomicServerStats::bump(m_context->stats.downloadsStarted); // each response, as over HTTP/1.1
    http::Request &request = stream.request;
    request.versionMinor = 1;
    request.keepAlive = true;
    ResponsePlan plan;
    m_planner.plan(request, &plan);
    const std::string &head = plan.out.head;
    const std::size_t end = head.find("\r\n\r\n");
    const std::size_t headEnd = end == std::string::npos ? head.size() : end + 2;
    std::string &bytes = stream.fieldBytes;
    bytes.reserve(headEnd);
    // Where each field's name and value sit in `bytes` (a planner's head has a handful of
    // lines: kept on the stack, no allocation per response).
    struct Span
    {
        std::size_t name, nameLength, value, valueLength;
    };
    std::array<Span, 24> spans;
    std::size_t count = 0;
    bytes.append(head, 9, 3); // "HTTP/1.1 200 OK": the code
    spans[count++] = {0, 0, 0, 3};
    for (std::size_t line = head.find("\r\n") + 2; line < headEnd && count < spans.size();) {
        const std::size_t lineEnd = head.find("\r\n", line);
        const std::size_t colon = head.find(':', line);
        if (colon == std::string::npos || colon > lineEnd)
            break;
        const std::size_t at = bytes.size();
        for (std::size_t i = line; i < colon; ++i) { // HTTP/2 field names are lower case
            const char c = head[i];
            bytes += c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
        }
        const std::string_view name(bytes.data() + at, colon - line);
        std::size_t valueAt = colon + 1;
        while (valueAt < lineEnd && head[valueAt] == ' ')
            ++valueAt;
        if (name == "connection" || name == "keep-alive") { // connection-specific: not in h2
            bytes.resize(at);
        } else {
            bytes.append(head, valueAt, lineEnd - valueAt);
            spans[count++] = {at, colon - line, at + (colon - line), lineEnd - valueAt};
        }
        line = lineEnd + 2;
    }
    static constexpr char status[] = ":status";
    stream.fields.reserve(count);
    for (const Span &s : std::span(spans.data(), count)) {
        nghttp2_nv nv{};
        nv.name = s.nameLength ? reinterpret_cast<std::uint8_t *>(bytes.data() + s.name)
                               : reinterpret_cast<std::uint8_t *>(const_cast<char *>(status));
        nv.namelen = s.nameLength ? s.nameLength : sizeof status - 1;
        nv.value = reinterpret_cast<std::uint8_t *>(bytes.data() + s.value);
        nv.valuelen = s.valueLength;
        stream.fields.push_back(nv);
    }
    if (end != std::string::npos)
        stream.inlineBody = head.substr(end + 4);
    stream.out = std::move(plan.out);
    stream.out.head.clear();
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
    nghttp2_submit_response(m_session, stream.id, stream.fields.data(), stream.fields.size(),
                            body ? &provider : nullptr);
    if (m_planner.spent())
        goAway(); // --max-requests: the connection ends once what it took is answered
}

} // namespace servelab::server
