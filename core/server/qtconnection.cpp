// SPDX-License-Identifier: Apache-2.0
#include "qtconnection.h"

#include "loopcontext.h"
#include "serverstats.h"
#include "threadstate.h"

#include <QTcpSocket>

#include <algorithm>
#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

namespace servelab::server {

namespace {
// Bytes queued in the QTcpSocket beyond which the body is not read further until it drains.
constexpr qint64 queueHighWater = 256 * 1024;
} // namespace

QtConnection::QtConnection(qintptr fd, LoopContext &context,
                           std::function<void(QtConnection *)> finished)
    : m_socket(new QTcpSocket), m_context(context), m_finished(std::move(finished)),
      m_parser(context.limits), m_drain(context.options.maxBodyBytes), m_planner(context),
      m_buffer(std::max<std::size_t>(context.options.bufferSize, 512))
{
    // Qt reads ahead into its own buffer; bound it to one maximal head, as Connection does.
    m_socket->setReadBufferSize(qint64(context.limits.maxHeadBytes) + 4096);
    m_socket->setSocketDescriptor(fd);
    QObject::connect(m_socket, &QTcpSocket::readyRead, m_socket, [this] { onReadyRead(); });
    QObject::connect(m_socket, &QTcpSocket::bytesWritten, m_socket,
                     [this](qint64 bytes) { onBytesWritten(bytes); });
    QObject::connect(m_socket, &QTcpSocket::disconnected, m_socket, [this] {
        m_peerClosed = true;
        finish();
    });
    QObject::connect(m_socket, &QTcpSocket::errorOccurred, m_socket,
                     [this](QAbstractSocket::SocketError error) {
                         if (error == QAbstractSocket::RemoteHostClosedError)
                             m_peerClosed = true;
                         // Anything else (reset, write failure) ends the connection.
                         if (error != QAbstractSocket::RemoteHostClosedError ||
                             m_phase == Phase::Writing || m_phase == Phase::Flushing)
                             finish();
                     });
    setPhase(Phase::Idle, context.options.headerTimeoutMs);
}

QtConnection::~QtConnection()
{
    if (m_phase == Phase::Writing) // cut short; a Flushing response was counted when queued
        AtomicServerStats::bump(m_context.stats.downloadsFinished);
    AtomicServerStats::bump(m_context.stats.connectionsClosed);
    m_socket->disconnect();
    m_socket->abort(); // closes the fd now
    m_socket->deleteLater();
}

void QtConnection::setPhase(Phase phase, int timeoutMs)
{
    if (phase == Phase::Writing)
        AtomicServerStats::bump(m_context.stats.downloadsStarted);
    m_phase = phase;
    m_deadlineMs = m_context.nowMs + timeoutMs;
}

void QtConnection::finish()
{
    if (m_phase == Phase::Done)
        return;
    if (m_phase == Phase::Writing) // cut short; a Flushing response was counted when queued
        AtomicServerStats::bump(m_context.stats.downloadsFinished);
    m_phase = Phase::Done;
    m_socket->disconnect(); // no more signals reach this object
    m_finished(this);
}

void QtConnection::onTimer()
{
    if (m_phase == Phase::Done || m_context.nowMs < m_deadlineMs)
        return;
    if (m_phase == Phase::Head || m_phase == Phase::Body) {
        // The slowloris case: a 408 if it fits, then close anyway.
        m_planner.planError(408, false, false, false, &m_response);
        m_socket->write(m_response.out.head.data(), qint64(m_response.out.head.size()));
        m_socket->flush();
    }
    finish();
}

void QtConnection::onReadyRead()
{
    m_context.nowMs = monotonicMs();
    if (m_phase == Phase::Done)
        return;
    if (m_phase == Phase::Lingering) {
        m_socket->readAll(); // discarded: we only wait for the client to finish
        return;
    }
    if (m_phase == Phase::Writing || m_phase == Phase::Flushing)
        return; // back-pressure: the next request waits in the socket's bounded buffer
    process();
}

void QtConnection::process()
{
    while (m_phase != Phase::Done && m_phase != Phase::Writing && m_phase != Phase::Flushing &&
           m_phase != Phase::Lingering) {
        const qint64 room = qint64(m_context.limits.maxHeadBytes) + 4096 - qint64(m_in.size());
        if (room > 0 && m_socket->bytesAvailable() > 0)
            m_in += m_socket->read(room).toStdString();
        if (m_phase == Phase::Body) {
            // As Connection: a body's framing is read to its end before the request is
            // answered; broken chunks get 400 and the connection closes.
            std::size_t used = 0;
            const auto status = m_drain.feed(m_in, &used);
            m_in.erase(0, used);
            if (status == http::RequestBodyDrain::Status::NeedMore) {
                if (m_socket->bytesAvailable() > 0)
                    continue;
                return;
            }
            if (status == http::RequestBodyDrain::Status::Error)
                m_planner.planError(m_drain.tooLarge() ? 413 : 400, false, false, false,
                                    &m_response);
            else
                m_planner.plan(m_parser.request(), &m_response);
            m_parser.reset();
        } else {
            if (m_in.empty())
                return;
            if (m_phase == Phase::Idle)
                setPhase(Phase::Head, m_context.options.headerTimeoutMs);
            const auto status = m_parser.parse(m_in);
            if (status == http::RequestParser::Status::NeedMore) {
                if (m_socket->bytesAvailable() > 0 && room > 0)
                    continue;
                return;
            }
            if (status == http::RequestParser::Status::Error) {
                m_planner.planError(m_parser.errorStatus(), false, false, false, &m_response);
            } else {
                const http::Request &request = m_parser.request();
                m_in.erase(0, m_parser.headLength());
                m_drain.start(request);
                if (m_drain.pending() && request.contentLength <= m_context.options.maxBodyBytes) {
                    setPhase(Phase::Body, m_context.options.headerTimeoutMs);
                    continue;
                }
                m_planner.plan(request, &m_response);
                m_parser.reset();
            }
        }
        m_headQueued = false;
        setPhase(Phase::Writing, m_context.options.sendTimeoutMs);
        writeMore();
    }
}

// Queues the head and as much body as the high-water mark allows.
void QtConnection::writeMore()
{
    OutgoingResponse &out = m_response.out;
    if (!m_headQueued) {
        m_socket->write(out.head.data(), qint64(out.head.size()));
        m_headQueued = true;
    }
    while (out.remaining > 0 && m_socket->bytesToWrite() < queueHighWater) {
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(out.remaining, m_buffer.size()));
        ssize_t got;
        do {
            got = pread(out.file.fd, m_buffer.data(), want, out.offset);
        } while (got < 0 && errno == EINTR);
        if (got <= 0) // read error, or the file was truncated: the framing cannot be kept
            return finish();
        m_socket->write(m_buffer.data(), got);
        out.offset += got;
        out.remaining -= static_cast<std::uint64_t>(got);
    }
    if (out.remaining == 0)
        responseQueued();
}

void QtConnection::responseQueued()
{
    AtomicServerStats::bump(m_context.stats.downloadsFinished);
    const bool closeAfter = m_response.closeAfter;
    const bool linger = m_response.lingerAfter || !m_in.empty() || m_drain.pending();
    m_response.out.clear();
    m_headQueued = false;
    if (closeAfter) {
        m_phase = Phase::Flushing;
        m_response.lingerAfter = linger;
        return closeWhenFlushed();
    }
    // A body still unread here was refused unread (413), and that response closes.
    setPhase(Phase::Idle, m_context.options.keepAliveTimeoutMs);
    // The loop in process() goes on with pipelined requests; from bytesWritten, start it.
}

void QtConnection::closeWhenFlushed()
{
    if (m_socket->bytesToWrite() > 0)
        return; // bytesWritten calls back
    if (m_response.lingerAfter && !m_peerClosed) {
        // Closing with unread input would reset the connection and could destroy the answer
        // in flight: half-close, then read until the client is done.
        m_socket->flush();
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
        setPhase(Phase::Lingering, m_context.options.lingerTimeoutMs);
        m_socket->readAll();
        return;
    }
    finish();
}

void QtConnection::onBytesWritten(qint64 bytes)
{
    m_context.nowMs = monotonicMs();
    AtomicServerStats::bump(m_context.stats.bytesSent, std::uint64_t(bytes));
    if (m_phase == Phase::Writing) {
        m_deadlineMs = m_context.nowMs + m_context.options.sendTimeoutMs;
        writeMore();
        if (m_phase == Phase::Idle)
            process();
    } else if (m_phase == Phase::Flushing) {
        closeWhenFlushed();
    }
}

} // namespace servelab::server
