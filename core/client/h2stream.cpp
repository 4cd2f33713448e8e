// SPDX-License-Identifier: Apache-2.0
#include "h2stream.h"

#include "h2clientsession.h"

namespace servelab::client {

H2Stream::H2Stream(H2ClientSession &session, const PreparedRequest &request)
    : m_session(session), m_request(&request)
{}

ClientExchange::Outcome H2Stream::begin(std::int64_t now, const PreparedRequest *request)
{
    if (request)
        m_request = request;
    m_startedAt = now;
    m_connectedAt = now;
    m_sentAt = now;
    m_firstByteAt = now;
    resetAnswer();
    return m_session.start(*this);
}

void H2Stream::resetAnswer()
{
    m_id = 0;
    m_status = 0;
    m_contentLength.reset();
    m_headers = false;
    m_wrongContent = false;
    m_resetByPeer = false;
    m_bytesRead = 0;
    m_bodyBytes = 0;
}

void H2Stream::disconnect()
{
    if (busy())
        m_session.cancel(*this);
    else
        m_session.closeWhenIdle();
}

bool H2Stream::open() const
{
    return m_session.open();
}

bool H2Stream::connecting() const
{
    return m_state == State::Queued && m_session.connecting();
}

int H2Stream::requestsOnConnection() const
{
    return m_session.requestsOnConnection();
}

ClientExchange::Outcome H2Stream::verdict() const
{
    if (!m_headers)
        return {Outcome::Failed, ErrorKind::EofBeforeResponse};
    if (m_wrongContent)
        return {Outcome::Failed, ErrorKind::WrongContent};
    if (m_contentLength && m_status == 200 && *m_contentLength != m_bodyBytes)
        return {Outcome::Failed, ErrorKind::WrongLength};
    std::optional<std::uint64_t> expected = m_session.expectedLength();
    if (m_request->expectedBody)
        expected = m_request->expectedBody->size();
    return judged(m_status, m_bodyBytes, expected);
}

} // namespace servelab::client
