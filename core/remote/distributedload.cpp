// SPDX-License-Identifier: Apache-2.0
#include "distributedload.h"

#include "agentchannel.h"
#include "agentprotocol.h"
#include "loadsplit.h"

#include "lab/results/resultbundle.h"
#include "lab/results/resultcolumns.h"
#include "lab/spec/experimentspec.h"
#include "lab/spec/sweepspec.h"
#include "lab/spec/transport.h"

#include <QSet>

#include <algorithm>
#include <poll.h>

namespace servelab::remote {

namespace {

constexpr int pingsPerAgent = 8;
constexpr int callTimeoutMs = 5000;
// After a loss or a cancel, how long the others are given to send what they measured.
constexpr qint64 graceNs = 3'000'000'000;

QString secondsSince(qint64 t0, qint64 now)
{
    const double s = double(now - t0) / 1e9;
    return s < 0 ? QStringLiteral("%1 s before the start").arg(-s, 0, 'f', 1)
                 : QStringLiteral("%1 s into the point").arg(s, 0, 'f', 1);
}

// How long the point can take: a timed model's length and a margin, within the point's
// deadline; a closed one's deadline.
qint64 expectedMs(const lab::SweepSpec &spec)
{
    qint64 length = spec.pointDeadlineMs;
    switch (spec.model) {
    case client::LoadModel::Duration:
    case client::LoadModel::Rate: length = spec.durationMs + 5000; break;
    case client::LoadModel::Ramp:
        length = qint64(spec.rampUpMs) + spec.steadyMs + spec.rampDownMs + 5000;
        break;
    case client::LoadModel::Closed: break;
    }
    return std::min<qint64>(length, spec.pointDeadlineMs);
}

} // namespace

DistributedLoad::DistributedLoad(std::vector<Agent> agents) : m_agents(std::move(agents)) {}

bool DistributedLoad::measureClocks(QString *why)
{
    for (qsizetype k = 0; k < m_shares.size(); ++k) {
        AgentChannel *channel = m_agents[size_t(m_active[k])].channel;
        std::vector<ClockSample> samples;
        for (int i = 0; i < pingsPerAgent; ++i) {
            const auto sample = channel->ping(callTimeoutMs, why);
            if (!sample)
                return false;
            samples.push_back(*sample);
        }
        const ClockOffset offset = estimateClockOffset(samples);
        if (m_shares[k].clock.valid())
            m_shares[k].clockDriftNs = offset.offsetNs - m_shares[k].clock.offsetNs;
        else
            m_shares[k].clock = offset;
    }
    return true;
}

lab::PointResult DistributedLoad::run(const lab::SweepSpec &spec, quint64 size, const QString &host,
                                      quint16 port)
{
    lab::PointResult point;
    point.sizeBytes = size;
    point.model = spec.model;
    point.protocol = spec.protocol();
    point.startedAtMicros = monotonicNanos() / 1000;
    const auto fail = [&](const QString &why) {
        point.dnf = true;
        point.reason = why;
        return point;
    };
    lab::Transport transport;
    QString problem;
    if (!lab::Transport::parse(spec.transport, &transport, &problem) || transport.https ||
        transport.http2)
        return fail(QStringLiteral("%1 is not split among load agents yet: run its points from "
                                   "one host")
                        .arg(transport.http2 ? transport.protocol() : QStringLiteral("https")));
    std::vector<double> weights;
    for (const Agent &agent : m_agents)
        weights.push_back(agent.weight);
    QList<qint64> phases;
    const QList<lab::SweepSpec> specs = splitShares(spec, weights, &m_active, &phases);
    m_shares.clear();
    for (int agent : m_active)
        m_shares << Share{m_agents[size_t(agent)].channel->name(), {}, {}, 0, 0, 0, false};
    if (m_cancelled) // stopped before it began: nothing is sent
        return fail(QStringLiteral("cancelled"));
    if (!measureClocks(&problem))
        return fail(problem);

    qint64 maxRoundTrip = 0;
    for (const Share &share : m_shares)
        maxRoundTrip = std::max(maxRoundTrip, share.clock.roundTripNs);
    const qint64 lead = m_leadMs >= 0 ? qint64(m_leadMs) * 1'000'000
                                      : std::max<qint64>(300'000'000, 4 * maxRoundTrip);
    const qint64 t0 = monotonicNanos() + lead;
    // Each agent stops by itself here, whatever becomes of the coordinator: a cut-off agent
    // does not load the server for long.
    const qint64 deadline = t0 + (expectedMs(spec) + 2000) * 1'000'000;
    if (m_started)
        m_started(t0 / 1000);
    const QString authority = host.contains(u':') ? QStringLiteral("[%1]:%2").arg(host).arg(port)
                                                  : QStringLiteral("%1:%2").arg(host).arg(port);
    for (qsizetype k = 0; k < m_shares.size(); ++k) {
        lab::SweepSpec share = specs[k];
        share.sizes = {size};
        share.target = QStringLiteral("url:http://%1/").arg(authority);
        lab::ExperimentSpec experiment;
        experiment.targets = {share};
        const ClockOffset &clock = m_shares[k].clock;
        AgentChannel *channel = m_agents[size_t(m_active[k])].channel;
        if (!channel->call(method::load,
                           {{QStringLiteral("spec"), QString::fromUtf8(experiment.toJson())},
                            {QStringLiteral("size"), qint64(size)},
                            {QStringLiteral("host"), host},
                            {QStringLiteral("port"), int(port)},
                            {QStringLiteral("start_at_ns"), clock.toAgent(t0 + phases[k])},
                            {QStringLiteral("deadline_ns"), clock.toAgent(deadline)}},
                           callTimeoutMs, &problem)) {
            point.dnf = true;
            point.reason = QStringLiteral("%1 could not start with the others: %2")
                               .arg(m_shares[k].agent, problem);
            // The ones already started stop; what they did is kept.
            m_shares = m_shares.mid(0, k);
            m_active = m_active.mid(0, k);
            break; // wait() stops the ones started, a DNF point being set
        }
    }
    wait(spec, t0, &point);
    QString drift;
    if (!point.dnf)
        measureClocks(&drift); // the offsets after the point: their change is the drift
    merge(t0, &point);
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (qsizetype k = 0; k < m_shares.size(); ++k) {
        if (m_shares[k].startedNs == 0)
            continue;
        first = std::min(first, m_shares[k].startedNs - phases[k]);
        last = std::max(last, m_shares[k].startedNs - phases[k]);
    }
    m_startSkewNs = last >= first ? last - first : 0;
    return point;
}

// A tick's samples (from the agent's start, which is T0 give or take its phase) to the live
// view; the agents' samples of one 100 ms slot add up there. A tick sent before T0 is the
// previous point's, come after its load_done: not this point's.
void DistributedLoad::publishTick(const QJsonObject &tick, const Share &share, qint64 t0) const
{
    if (share.clock.toCoordinator(tick.value(QStringLiteral("now_ns")).toInteger()) < t0)
        return;
    for (const QJsonValue &value : tick.value(QStringLiteral("samples")).toArray()) {
        client::ClientSample sample;
        lab::ResultColumns::fromJson(lab::ResultColumns::clientSample(), value.toObject(), &sample);
        m_live->publish(std::move(sample));
    }
}

void DistributedLoad::cancelAll()
{
    QString ignored; // an agent that cannot take it stops at its deadline anyway
    for (qsizetype k = 0; k < m_shares.size(); ++k)
        if (m_shares[k].endedNs == 0)
            m_agents[size_t(m_active[k])].channel->post(method::cancel, {}, &ignored);
}

void DistributedLoad::wait(const lab::SweepSpec &spec, qint64 t0, lab::PointResult *point)
{
    QSet<qsizetype> pending;
    for (qsizetype k = 0; k < m_shares.size(); ++k)
        pending.insert(k);
    const qint64 hardDeadline = t0 + (expectedMs(spec) + 5000) * 1'000'000;
    qint64 giveUpAt = std::numeric_limits<qint64>::max();
    bool cancelSent = false;
    const auto stopOthers = [&] {
        if (cancelSent)
            return;
        cancelSent = true;
        cancelAll();
        giveUpAt = monotonicNanos() + graceNs;
    };
    const auto lost = [&](qsizetype k, const QString &why) {
        pending.remove(k);
        if (!point->dnf) {
            point->dnf = true;
            point->reason = QStringLiteral("%1 lost %2: %3")
                                .arg(m_shares[k].agent, secondsSince(t0, monotonicNanos()), why);
        }
        stopOthers();
    };
    while (!pending.isEmpty()) {
        if (m_cancelled || point->dnf)
            stopOthers();
        std::vector<pollfd> fds;
        for (qsizetype k : std::as_const(pending))
            fds.push_back({m_agents[size_t(m_active[k])].channel->pollFd(), POLLIN, 0});
        ::poll(fds.data(), fds.size(), 50);
        const qint64 now = monotonicNanos();
        for (qsizetype k : QList<qsizetype>(pending.begin(), pending.end())) {
            AgentChannel *channel = m_agents[size_t(m_active[k])].channel;
            Share &share = m_shares[k];
            QString why;
            const bool alive = channel->receive(&why);
            while (const auto notice = channel->nextNotification()) {
                const QString kind = notice->value(QStringLiteral("method")).toString();
                if (kind == QLatin1String(method::tick) && m_live)
                    publishTick(notice->value(QStringLiteral("params")).toObject(), share, t0);
                if (kind != QLatin1String(method::loadDone))
                    continue;
                const QJsonObject done = notice->value(QStringLiteral("params")).toObject();
                if (!lab::ResultBundle::pointFromJson(
                        done.value(QStringLiteral("point")).toObject(), &share.point)) {
                    why = QStringLiteral("its result cannot be read");
                    break;
                }
                share.point.load.concurrency = done.value(QStringLiteral("concurrency")).toInt(1);
                share.startedNs =
                    share.clock.toCoordinator(done.value(QStringLiteral("started_ns")).toInteger());
                share.endedNs =
                    share.clock.toCoordinator(done.value(QStringLiteral("ended_ns")).toInteger());
                share.finished = !done.value(QStringLiteral("cancelled")).toBool() &&
                                 !done.value(QStringLiteral("stopped_at_deadline")).toBool();
                pending.remove(k);
            }
            if (!pending.contains(k))
                continue;
            if (!alive)
                lost(k, why);
            else if (!why.isEmpty())
                lost(k, why);
            else if (now - channel->lastHeardNs() > qint64(lostAfterMs) * 1'000'000)
                lost(k, QStringLiteral("no word from it for %1 ms")
                            .arg((now - channel->lastHeardNs()) / 1'000'000));
        }
        if (now > giveUpAt || now > hardDeadline) {
            for (qsizetype k : std::as_const(pending))
                if (!point->dnf) {
                    point->dnf = true;
                    point->reason = QStringLiteral("%1 sent no result by %2")
                                        .arg(m_shares[k].agent, secondsSince(t0, now));
                }
            cancelAll();
            break;
        }
    }
    if (m_cancelled && !point->dnf) {
        point->dnf = true;
        point->reason = QStringLiteral("cancelled");
    }
}

void DistributedLoad::merge(qint64 t0, lab::PointResult *point) const
{
    point->startedAtMicros = t0 / 1000;
    std::vector<client::ClientSample> samples;
    QList<const lab::PointResult *> shares;
    for (const Share &share : m_shares) {
        if (share.endedNs == 0)
            continue; // nothing came from it
        const lab::PointResult &p = share.point;
        shares << &p;
        // The histograms and error counts as the client merges its threads'; every scalar
        // below as its ResultColumns row says.
        point->load.merge(p.load);
        point->uncorrected.merge(p.uncorrected);
        // Each share's samples are from its own start: onto the grid from T0.
        const std::int64_t shift = (share.startedNs - t0) / 1000;
        for (client::ClientSample s : p.clientSamples) {
            s.endMicros += shift;
            samples.push_back(std::move(s));
        }
    }
    lab::ResultColumns::mergeAgents(shares, point);
    point->load.concurrency = std::max(1, point->load.concurrency);
    point->clientSamples = client::sumByInterval(samples);
}

} // namespace servelab::remote
