// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <memory>

namespace servelab::client {
class SampleSink;
}

namespace servelab::lab {

struct PointResult;
struct SweepSpec;
class Target;

// The hosts of a distributed run (`run --hosts`, the wizard's Hosts page), as SweepRunner and
// ExperimentRunner use them: a server host that runs the target and samples it on its own
// clock, and load hosts that make each point's load between them. remote::HostFleet is the
// one implementation (agents over ssh, kubectl exec, ip netns exec); the engine knows only
// this.
class RemoteHosts
{
public:
    virtual ~RemoteHosts() = default;

    // Reaches every agent (version handshake, clocks); false with the reason, naming the host.
    virtual bool connect(QString *why) = 0;
    // What the run ran on: the hosts file and each agent's answer (version, cores, limits).
    virtual QJsonObject facts() const = 0;
    // The spec's server, on the server host; its start() serves there.
    virtual std::unique_ptr<Target> target(const SweepSpec &spec) = 0;
    // Where the load hosts reach it.
    virtual QString serverAddress() const = 0;

    // Around one point's load: the server host starts watching its server (samples, a leak
    // baseline, its counters, its CPU), then hands what it saw to the point: its samples on this
    // machine's clock, the fds left open, its requests and CPU.
    virtual bool watchServer(QString *why) = 0;
    virtual void endWatch(PointResult *point) = 0;
    // One point's load at `size`, split among the load hosts (point->load merged exactly,
    // point->agents each one's part); DNF with the reason when a host is late or lost. `live`
    // (may be null) takes the hosts' samples as they come, for a live view, once `started`
    // has said when T0 is (µs on this machine's monotonic clock).
    virtual void runLoad(const SweepSpec &spec, quint64 size, quint16 port, PointResult *point,
                         client::SampleSink *live = nullptr,
                         std::function<void(std::int64_t t0Micros)> started = {}) = 0;
    // From any thread: the load being made stops within a moment, and any load asked for
    // afterwards stops at once (a cancelled run makes no more).
    virtual void stopLoad() = 0;
};

} // namespace servelab::lab
