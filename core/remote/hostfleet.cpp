// SPDX-License-Identifier: Apache-2.0
#include "hostfleet.h"

#include "agentprotocol.h"
#include "distributedload.h"
#include "remotetarget.h"

#include "lab/results/pointresult.h"
#include "lab/results/resultbundle.h"
#include "lab/spec/sweepspec.h"

#include <QJsonArray>

namespace servelab::remote {

namespace {

constexpr int clockPings = 16;
constexpr int pointPings = 8; // the server's offset, again after each point
constexpr int callTimeoutMs = 10000;
// The server agent waits up to 2 s for the descriptors to come back before it answers.
constexpr int watchEndTimeoutMs = 15000;

} // namespace

HostFleet::HostFleet(HostsFile hosts) : m_hosts(std::move(hosts)) {}

std::shared_ptr<HostFleet> HostFleet::open(const QString &path,
                                           const QList<lab::SweepSpec> &targets, QString *why)
{
    auto file = HostsFile::read(path, why);
    if (!file)
        return nullptr;
    for (const lab::SweepSpec &target : targets)
        if (const QString problem = RemoteTarget::unsupported(target); !problem.isEmpty()) {
            *why = QStringLiteral("hosts: ") + problem;
            return nullptr;
        }
    return std::make_shared<HostFleet>(std::move(*file));
}

HostFleet::~HostFleet()
{
    QString ignored;
    for (AgentReach *agent : [this] {
             std::vector<AgentReach *> all{&m_server};
             for (AgentReach &load : m_load)
                 all.push_back(&load);
             return all;
         }())
        if (agent->channel) {
            if (agent->ok())
                agent->channel->call(method::shutdown, {}, callTimeoutMs, &ignored);
            agent->channel->end();
        }
}

bool HostFleet::connect(QString *why)
{
    m_server = AgentReach::reach(m_hosts, m_hosts.server, -1, clockPings);
    if (!m_server.ok()) {
        *why = m_server.problem;
        return false;
    }
    for (qsizetype i = 0; i < m_hosts.load.size(); ++i) {
        m_load.push_back(AgentReach::reach(m_hosts, m_hosts.load[i], int(i), clockPings));
        if (!m_load.back().ok()) {
            *why = m_load.back().problem;
            return false;
        }
    }
    return true;
}

QJsonObject HostFleet::facts() const
{
    const auto agent = [](const AgentReach &a) {
        QJsonObject o = a.hello;
        o.insert(QStringLiteral("agent"), a.channel ? a.channel->name() : QString());
        o.insert(QStringLiteral("clock_offset_ns"), a.clock.offsetNs);
        o.insert(QStringLiteral("clock_error_ns"), a.clock.errorNs);
        return o;
    };
    QJsonArray load;
    for (const AgentReach &a : m_load)
        load.append(agent(a));
    return {{QStringLiteral("hosts_file"), m_hosts.toJson()},
            {QStringLiteral("server"), agent(m_server)},
            {QStringLiteral("load"), load}};
}

std::unique_ptr<lab::Target> HostFleet::target(const lab::SweepSpec &spec)
{
    return std::make_unique<RemoteTarget>(*m_server.channel, m_hosts.serverListen(), spec);
}

bool HostFleet::watchServer(QString *why)
{
    m_watching = m_server.channel->call(method::watch, {}, callTimeoutMs, why).has_value();
    return m_watching;
}

void HostFleet::endWatch(lab::PointResult *point)
{
    if (!m_watching)
        return;
    m_watching = false;
    QString why;
    const auto seen = m_server.channel->call(method::watchEnd, {}, watchEndTimeoutMs, &why);
    lab::PointResult server;
    if (!seen || !lab::ResultBundle::pointFromJson(seen->value(QStringLiteral("point")).toObject(),
                                                   &server)) {
        point->costNote = QStringLiteral("the server host's figures did not arrive: %1")
                              .arg(why.isEmpty() ? QStringLiteral("they cannot be read") : why);
        return;
    }
    // The samples are from the watch's start on the server host's clock: onto this one, with
    // its offset measured again now (a long run's clocks drift apart).
    refreshServerClock();
    const qint64 startedUs =
        m_server.clock.toCoordinator(seen->value(QStringLiteral("started_ns")).toInteger()) / 1000;
    for (metrics::ProcessSample &s : server.serverSamples)
        s.atMicros += startedUs;
    // The server's side of the point, as the server agent measured it.
    point->serverSamples = std::move(server.serverSamples);
    point->fdsLeftOpen = server.fdsLeftOpen;
    point->serverCounted = server.serverCounted;
    point->server = server.server; // every counter of the table, as the server agent read it
    point->serverUse = server.serverUse;
    point->costNote = server.costNote;
}

void HostFleet::refreshServerClock()
{
    std::vector<ClockSample> samples;
    QString why;
    for (int i = 0; i < pointPings; ++i)
        if (const auto sample = m_server.channel->ping(callTimeoutMs, &why))
            samples.push_back(*sample);
    if (!samples.empty()) // else the last estimate stands
        m_server.clock = estimateClockOffset(samples);
}

void HostFleet::runLoad(const lab::SweepSpec &spec, quint64 size, quint16 port,
                        lab::PointResult *point, client::SampleSink *live,
                        std::function<void(std::int64_t)> started)
{
    std::vector<DistributedLoad::Agent> agents;
    for (qsizetype i = 0; i < m_hosts.load.size(); ++i)
        agents.push_back({m_load[size_t(i)].channel.get(), m_hosts.load[i].weight});
    DistributedLoad load(std::move(agents));
    load.setLiveSink(live, std::move(started));
    {
        std::lock_guard lock(m_mutex);
        m_running = &load;
        if (m_stopped) // a stop that came before this load existed still holds
            load.cancel();
    }
    lab::PointResult merged = load.run(spec, size, m_hosts.server.address, port);
    {
        std::lock_guard lock(m_mutex);
        m_running = nullptr;
    }
    // The merged point is the point (T0 its timelines' zero), as this sweep named it.
    merged.index = point->index;
    merged.sizeBytes = point->sizeBytes;
    merged.target = point->target;
    merged.model = point->model;
    *point = std::move(merged);
    point->startSkewMicros = load.startSkewNs() / 1000;
    point->agents.clear();
    for (const DistributedLoad::Share &share : load.shares()) {
        lab::AgentLane lane;
        lane.agent = share.agent;
        lane.finished = share.finished;
        lane.clockOffsetNs = share.clock.offsetNs;
        lane.clockErrorNs = share.clock.errorNs;
        lane.clockDriftNs = share.clockDriftNs;
        lane.startMicros = share.startedNs ? share.startedNs / 1000 - point->startedAtMicros : 0;
        for (const AgentReach &agent : m_load)
            if (agent.channel->name() == share.agent)
                lane.cores = agent.hello.value(QStringLiteral("cores")).toInt();
        lane.load = share.point.load;
        for (client::ClientSample s : share.point.clientSamples) {
            s.endMicros += lane.startMicros; // from T0, as the merged ones
            lane.samples.push_back(std::move(s));
        }
        point->agents.push_back(std::move(lane));
    }
}

void HostFleet::stopLoad()
{
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    if (m_running)
        m_running->cancel();
}

} // namespace servelab::remote
