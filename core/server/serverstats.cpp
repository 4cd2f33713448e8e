// SPDX-License-Identifier: Apache-2.0
#include "serverstats.h"

#include <algorithm>

namespace servelab::server {

ServerStats &ServerStats::operator+=(const ServerStats &o)
{
    connectionsAccepted += o.connectionsAccepted;
    requests += o.requests;
    responses2xx += o.responses2xx;
    responses4xx += o.responses4xx;
    responses5xx += o.responses5xx;
    bytesSent += o.bytesSent;
    acceptEmfile += o.acceptEmfile;
    refused += o.refused;
    connectionsClosed += o.connectionsClosed;
    downloadsStarted += o.downloadsStarted;
    downloadsFinished += o.downloadsFinished;
    queued += o.queued;
    handoffs += o.handoffs;
    handoffWaitMicros += o.handoffWaitMicros;
    handoffWaitMaxMicros = std::max(handoffWaitMaxMicros, o.handoffWaitMaxMicros);
    return *this;
}

void AtomicServerStats::countResponse(int status)
{
    bump(requests);
    if (status < 300)
        bump(responses2xx);
    else if (status >= 500)
        bump(responses5xx);
    else if (status >= 400)
        bump(responses4xx);
}

ServerStats AtomicServerStats::snapshot() const
{
    constexpr auto r = std::memory_order_relaxed;
    ServerStats s;
    s.connectionsAccepted = connectionsAccepted.load(r);
    s.requests = requests.load(r);
    s.responses2xx = responses2xx.load(r);
    s.responses4xx = responses4xx.load(r);
    s.responses5xx = responses5xx.load(r);
    s.bytesSent = bytesSent.load(r);
    s.acceptEmfile = acceptEmfile.load(r);
    s.refused = refused.load(r);
    s.connectionsClosed = connectionsClosed.load(r);
    s.downloadsStarted = downloadsStarted.load(r);
    s.downloadsFinished = downloadsFinished.load(r);
    s.handoffs = handoffs.load(r);
    s.handoffWaitMicros = handoffWaitMicros.load(r);
    s.handoffWaitMaxMicros = handoffWaitMaxMicros.load(r);
    return s;
}

} // namespace servelab::server
