// SPDX-License-Identifier: Apache-2.0
#include "serverwatch.h"

#include "clocksync.h"

#include "lab/results/pointresult.h"
#include "lab/results/resultbundle.h"
#include "lab/targets/isolatedserver.h"

#include <unistd.h>

namespace servelab::remote {

ServerWatch::ServerWatch(lab::IsolatedServer &server)
    : m_server(server), m_leaks([this] { return m_sampler.openFds(); })
{}

ServerWatch::~ServerWatch()
{
    m_sampler.stop();
}

bool ServerWatch::start(QString *why)
{
    const pid_t pid = pid_t(m_server.pid());
    std::string error;
    if (pid <= 0 || !m_sampler.start(pid, &error)) {
        *why = QStringLiteral("cannot watch the server: ") +
               (pid <= 0 ? QStringLiteral("it is not running") : QString::fromStdString(error));
        return false;
    }
    m_leaks.baseline();
    m_sampler.drain();
    m_before = m_server.stats();
    m_startedNs = monotonicNanos();
    m_sampler.sampleNow();
    m_cost = std::make_unique<lab::ServerCostMeter>(pid, false, false);
    m_cost->start();
    return true;
}

QJsonObject ServerWatch::finish()
{
    lab::PointResult point;
    point.startedAtMicros = m_startedNs / 1000;
    if (m_cost)
        m_cost->finish(&point);
    m_sampler.sampleNow();
    const qint64 endedNs = monotonicNanos();
    point.fdsLeftOpen = m_leaks.leftOpen(2000);
    point.serverSamples = m_sampler.drain();
    m_sampler.stop();
    // The timeline is the point's: the leak check's wait after it is not.
    std::erase_if(point.serverSamples, [endedNs](const metrics::ProcessSample &s) {
        return s.atMicros > endedNs / 1000;
    });
    if (const auto after = m_server.stats(); m_before && after)
        point.countServer(*m_before, *after);
    return {{QStringLiteral("point"), lab::ResultBundle::pointToJson(point)},
            {QStringLiteral("started_ns"), m_startedNs}};
}

} // namespace servelab::remote
