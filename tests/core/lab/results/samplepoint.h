// SPDX-License-Identifier: Apache-2.0
#pragma once

// A point with every field set, for the tests of what keeps points (the database, the bundle).

#include "lab/results/pointresult.h"

namespace servelab::testing {

inline lab::PointResult samplePoint(int index)
{
    lab::PointResult p;
    p.index = index;
    p.repetition = index * 2;
    p.serverCounted = index == 1;
    p.server.requests = 100;
    p.server.acceptEmfile = 3;
    p.server.handoffs = 250;
    p.server.handoffWaitMicros = 12345;
    p.sizeBytes = 4096u << index;
    p.target = QStringLiteral("epoll+sendfile");
    p.reason =
        index ? QStringLiteral("2 of 100 requests failed, mostly: connection reset") : QString();
    auto &l = p.load;
    l.concurrency = 4;
    l.completed = 100;
    l.ok = 98;
    l.errors[std::size_t(client::ErrorKind::Reset)] = 2;
    l.bytesRead = 100 * (p.sizeBytes + 200);
    l.bodyBytes = 98 * p.sizeBytes;
    l.connects = 100;
    l.elapsedMicros = 250'000;
    for (int i = 0; i < 100; ++i)
        l.latency.record(100 + 37 * i);
    p.startedAtMicros = 5'000'000;
    // What it cost: every figure of both sides set but the client's syscalls (not counted).
    std::int64_t figure = 1000 + index;
    for (const auto &f : metrics::ResourceUse::fields) {
        p.serverUse.*f.member = figure++;
        p.load.clientUse.*f.member = figure++;
    }
    p.load.clientUse.syscalls = -1;
    p.load.clientThreads = 2;
    p.costNote = QStringLiteral("syscalls not counted: a test");
    p.verdict = QStringLiteral("client-bound");
    p.verdictWhy = QStringLiteral("client 2 busy threads at 97% of their cores");
    for (int i = 1; i <= 3; ++i) {
        client::ClientSample s;
        s.endMicros = 100'000 * i;
        s.intervalMicros = 100'000;
        s.completed = 30;
        s.ok = 30;
        s.bytesRead = 30 * p.sizeBytes;
        s.openConnections = 4;
        s.latency.record(200 * i);
        p.clientSamples.push_back(s);
        metrics::ProcessSample m;
        m.atMicros = p.startedAtMicros + 100'000 * i;
        m.alive = true;
        m.byType = i != 2;
        m.total = 10 + i;
        m.sockets = 5 + i;
        m.files = 2;
        m.anonInodes = 3;
        m.fdLimit = 1024;
        m.threads = 3;
        m.rssBytes = 8 << 20;
        m.userSeconds = 0.01 * i;
        m.systemSeconds = 0.02 * i;
        p.serverSamples.push_back(m);
    }
    if (index)
        p.fdsLeftOpen = {QStringLiteral("fd 9 file /r/8K.bin"), QStringLiteral("fd 10 socket:[1]")};
    // A profile on the second point; the first was not asked for one.
    if (index) {
        p.profile.requested = true;
        p.profile.note = QStringLiteral("shallow stacks (median 3 frames)");
        p.profile.onCpu = QStringLiteral("main;serve;sendfile 1200\nmain;serve;recv 300\n");
        p.profile.offCpu = QStringLiteral("main;pop;__lll_lock_wait 4500\n");
        p.profile.perfData = QStringLiteral("/tmp/p/epoll_sendfile-8K.perf.data");
        p.profile.requestsPerSecond = 9500.5;
        p.profile.unprofiledRequestsPerSecond = 10000.25;
    }
    // Two load agents on the second point (run --hosts), the second cut short.
    if (index) {
        p.startSkewMicros = 420;
        for (int k = 0; k < 2; ++k) {
            lab::AgentLane lane;
            lane.agent = QStringLiteral("load agent %1 (10.0.0.%2)").arg(k + 1).arg(k + 2);
            lane.finished = k == 0;
            lane.clockOffsetNs = k * 3'600'000'000'000LL + 17;
            lane.clockErrorNs = 90'000 + k;
            lane.clockDriftNs = -5 + k;
            lane.startMicros = 300 * k;
            lane.cores = 2 + k;
            lane.load.concurrency = 2;
            lane.load.completed = lane.load.ok = 49 + k;
            lane.load.elapsedMicros = 250'000;
            lane.load.clientUse.userMicros = 1000 * (k + 1);
            for (int i = 0; i < 49 + k; ++i)
                lane.load.latency.record(100 + 37 * i + k);
            lane.samples = {p.clientSamples[k]};
            p.agents.push_back(std::move(lane));
        }
    }
    return p;
}

// Whether a point read back carries the load agents' lanes written (the first difference is
// printed).
inline bool sameAgents(const lab::PointResult &got, const lab::PointResult &want)
{
    if (got.agents.size() != want.agents.size() || got.startSkewMicros != want.startSkewMicros) {
        qWarning("%zu lanes, skew %lld", got.agents.size(), qlonglong(got.startSkewMicros));
        return false;
    }
    for (std::size_t k = 0; k < got.agents.size(); ++k) {
        const lab::AgentLane &g = got.agents[k];
        const lab::AgentLane &w = want.agents[k];
        if (g.agent != w.agent || g.finished != w.finished || g.clockOffsetNs != w.clockOffsetNs ||
            g.clockErrorNs != w.clockErrorNs || g.clockDriftNs != w.clockDriftNs ||
            g.startMicros != w.startMicros || g.cores != w.cores || g.load.ok != w.load.ok ||
            g.load.latency.count() != w.load.latency.count() ||
            g.load.latency.max() != w.load.latency.max() ||
            g.load.clientUse.userMicros != w.load.clientUse.userMicros ||
            g.cpuShare() != w.cpuShare() || g.samples.size() != w.samples.size() ||
            g.samples.front().endMicros != w.samples.front().endMicros) {
            qWarning("lane %zu (%s) differs", k, qPrintable(w.agent));
            return false;
        }
    }
    return true;
}

// Whether a point read back carries the cost and verdict written, figure by figure (the
// first difference is printed).
inline bool sameCost(const lab::PointResult &got, const lab::PointResult &want)
{
    for (const auto &f : metrics::ResourceUse::fields)
        if (got.serverUse.*f.member != want.serverUse.*f.member ||
            got.load.clientUse.*f.member != want.load.clientUse.*f.member) {
            qWarning("cost figure %s differs", f.key);
            return false;
        }
    return got.load.clientThreads == want.load.clientThreads && got.costNote == want.costNote &&
           got.verdict == want.verdict && got.verdictWhy == want.verdictWhy;
}

// Whether a point read back carries the profile written.
inline bool sameProfile(const lab::PointResult &got, const lab::PointResult &want)
{
    const auto &g = got.profile;
    const auto &w = want.profile;
    return g.requested == w.requested && g.note == w.note && g.onCpu == w.onCpu &&
           g.offCpu == w.offCpu && g.perfData == w.perfData &&
           g.requestsPerSecond == w.requestsPerSecond &&
           g.unprofiledRequestsPerSecond == w.unprofiledRequestsPerSecond;
}

} // namespace servelab::testing
