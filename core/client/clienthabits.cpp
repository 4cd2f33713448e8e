// SPDX-License-Identifier: Apache-2.0
#include "clienthabits.h"

#include "clientexchange.h"

namespace servelab::client {

ClientHabits::ClientHabits(const ClientOptions &options, const RequestTarget &target, int thread)
    : m_options(options), m_target(target), m_random(0x5e7e1ab0 + std::uint64_t(thread))
{}

const PreparedRequest *ClientHabits::nextRequest()
{
    return m_target.mixRequests.empty() ? nullptr : &m_target.pick(m_random);
}

bool ClientHabits::closeNow(const ClientExchange &connection)
{
    if (!connection.open())
        return false;
    if (m_options.requestsPerConnection > 0 &&
        connection.requestsOnConnection() >= m_options.requestsPerConnection)
        return true;
    return m_options.closeProbability > 0 &&
           std::uniform_real_distribution<double>(0, 1)(m_random) < m_options.closeProbability;
}

} // namespace servelab::client
