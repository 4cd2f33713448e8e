// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "clientoptions.h"
#include "loadresult.h"
#include "stopsignal.h"

namespace servelab::client {

// The `closed` model with ab's semantics: `requests` requests in all, at most `concurrency`
// in flight, each on a new connection unless keep-alive is on; one thread, one epoll set.
// run() blocks; stop() may be called from any thread and ends the run within one poll.
class ClosedClient
{
public:
    explicit ClosedClient(ClientOptions options);
    ClosedClient(const ClosedClient &) = delete;
    ClosedClient &operator=(const ClosedClient &) = delete;

    LoadResult run();
    void stop();

private:
    ClientOptions m_options;
    StopSignal m_stop;
};

} // namespace servelab::client
