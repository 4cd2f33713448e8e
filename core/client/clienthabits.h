// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "requesttarget.h"

#include <random>
#include <string>

namespace servelab::client {

class ClientExchange;

// One client thread's realism knobs (ClientOptions): which request goes next (a URL mix), when
// a kept-alive connection is closed by the client, and how long it waits between requests.
// Seeded per thread, so a run draws the same sequence each time.
class ClientHabits
{
public:
    ClientHabits(const ClientOptions &options, const RequestTarget &target, int thread);

    // The next request; null when there is no mix (the usual one again).
    const PreparedRequest *nextRequest();
    // After a response: whether the client closes this connection now.
    bool closeNow(const ClientExchange &exchange);
    bool thinks() const { return m_options.keepAliveThink.kind != ThinkTime::Kind::None; }
    double thinkMicros() { return m_options.keepAliveThink.sampleMicros(m_random); }

private:
    const ClientOptions &m_options;
    const RequestTarget &m_target;
    std::mt19937_64 m_random;
};

} // namespace servelab::client
