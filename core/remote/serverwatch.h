// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/run/fdleakcheck.h"
#include "lab/run/servercostmeter.h"
#include "metrics/processsampler.h"
#include "server/serverstats.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

namespace servelab::lab {
class IsolatedServer;
}

namespace servelab::remote {

// The server agent's watch over the server it runs (a child `servelab-cli serve`), around one
// point of a distributed run: what SweepRunner does for a server on its own machine, done on
// the server's host, on its clock. start() begins sampling the server every 100 ms and takes
// the leak baseline, its counters and its CPU; finish() ends the timeline, waits for the
// descriptors to come back (up to 2 s) and returns the point as the bundle writes one, with
// only the server's figures in it (samples from the start, fds left open, requests, CPU).
class ServerWatch
{
public:
    explicit ServerWatch(lab::IsolatedServer &server);
    ~ServerWatch();
    ServerWatch(const ServerWatch &) = delete;
    ServerWatch &operator=(const ServerWatch &) = delete;

    bool start(QString *why);
    // {"point": the server's part, "started_ns": start()'s moment on this host's clock}.
    QJsonObject finish();

private:
    lab::IsolatedServer &m_server;
    metrics::ProcessSampler m_sampler;
    lab::FdLeakCheck m_leaks;
    std::unique_ptr<lab::ServerCostMeter> m_cost;
    std::optional<server::ServerStats> m_before;
    qint64 m_startedNs = 0;
};

} // namespace servelab::remote
