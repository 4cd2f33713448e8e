// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "http/requestbodydrain.h"
#include "http/requestparser.h"
#include "responseplanner.h"

#include <QtGlobal>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class QTcpSocket;

namespace servelab::server {

// One connection of the `qt` model: the same HTTP semantics as Connection (ResponsePlanner,
// RequestParser, RequestBodyDrain), but every byte goes through a QTcpSocket and its buffers,
// driven by readyRead/bytesWritten on the thread's Qt event loop. Body: pread() into a buffer
// of B bytes, QTcpSocket::write(), refilled as the socket drains (copy is the only transfer).
class QtConnection
{
public:
    // `finished` is called once, from an event handler, when the connection is over; the owner
    // must destroy it later (from the event loop), not inside that call.
    QtConnection(qintptr fd, LoopContext &context, std::function<void(QtConnection *)> finished);
    QtConnection(const QtConnection &) = delete;
    QtConnection &operator=(const QtConnection &) = delete;
    ~QtConnection();

    std::int64_t deadlineMs() const { return m_deadlineMs; }
    void onTimer(); // the deadline passed

private:
    enum class Phase
    {
        Idle,
        Head,
        Writing,
        Body,
        Flushing,  // the last response is queued; close once Qt has written it
        Lingering, // half-closed after an error: read until EOF, then close
        Done,
    };

    void onReadyRead();
    void onBytesWritten(qint64 bytes);
    void process();
    void writeMore();
    void responseQueued();
    void closeWhenFlushed();
    void finish();
    void setPhase(Phase phase, int timeoutMs);

    QTcpSocket *m_socket;
    LoopContext &m_context;
    std::function<void(QtConnection *)> m_finished;
    std::string m_in;
    http::RequestParser m_parser;
    http::RequestBodyDrain m_drain;
    ResponsePlanner m_planner;
    ResponsePlan m_response;
    bool m_headQueued = false;
    std::vector<char> m_buffer;
    Phase m_phase = Phase::Idle;
    std::int64_t m_deadlineMs = 0;
    bool m_peerClosed = false;
};

} // namespace servelab::server
