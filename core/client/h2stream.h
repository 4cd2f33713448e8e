// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientexchange.h"

#include <cstdint>
#include <optional>

namespace servelab::client {

class H2ClientSession;

// One request slot on a shared HTTP/2 connection: each request it begins is a stream of its
// H2ClientSession (h2load's -m slots of one connection). Its latency runs from begin() to the
// stream's close, whatever the connection did meanwhile (connecting, other streams' frames).
class H2Stream final : public ClientExchange
{
public:
    H2Stream(H2ClientSession &session, const PreparedRequest &request);

    Outcome begin(std::int64_t now, const PreparedRequest *request = nullptr) override;
    // Busy: the stream is reset (RST_STREAM CANCEL); idle: the connection closes once its
    // other streams are done (the realism knobs).
    void disconnect() override;
    bool open() const override;
    bool busy() const override { return m_state != State::Idle; }
    bool connecting() const override;
    int status() const override { return m_status; }
    std::uint64_t connectsMade() const override { return 0; } // H2ClientSession counts them
    int requestsOnConnection() const override;

private:
    friend class H2ClientSession;
    friend struct H2ClientCallbacks;
    enum class State
    {
        Idle,
        Queued, // begun, waiting for the connection (connecting, or replacing a closing one)
        Active  // a stream on the connection
    };

    void resetAnswer(); // forgets what was received (a retry on a new connection)
    // The answer so far, once its stream closed with no error.
    Outcome verdict() const;

    H2ClientSession &m_session;
    const PreparedRequest *m_request;
    State m_state = State::Idle;
    std::int32_t m_id = 0;
    int m_status = 0;
    std::optional<std::uint64_t> m_contentLength;
    bool m_headers = false;      // a response HEADERS frame came
    bool m_wrongContent = false; // a body byte differed from the expected file's
    bool m_resetByPeer = false;  // the server sent RST_STREAM
};

} // namespace servelab::client
