// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "lab/results/pointresult.h"
#include "lab/spec/sweepspec.h"

#include <QList>
#include <QObject>

#include <memory>
#include <unistd.h>

namespace servelab::client {
struct ClientOptions;
struct LoadResult;
} // namespace servelab::client
namespace servelab::metrics {
class ProcessSampler;
}

namespace servelab::lab {

class LiveFeed;
class RemoteHosts;
class RunControl;
class Target;

// Runs a sweep: generates the document root, starts the target once, and measures each file
// size with the spec's client model (its PointRun row) while a ProcessSampler watches the
// server process (this one for an in-process target); after each point it checks the server's
// descriptors came back (FdLeakCheck). Lives in a worker thread (the GUI) or is called directly
// (the CLI); results leave as value types through queued signals.
class SweepRunner : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(const SweepSpec &spec, QObject *parent = nullptr);
    ~SweepRunner() override;

    // Thread-safe; the point being measured stops within one client poll (≤ 100 ms).
    void cancel();
    // Thread-safe; takes effect before the next point (the one being measured is finished).
    void pause();
    void resume();
    // Shares the control of a whole experiment instead of this runner's own.
    void setControl(std::shared_ptr<RunControl> control);
    // Hands the samples of each point to `feed` as they are taken, under `label` (empty: the
    // target's own) and `repetition`.
    void setLiveFeed(std::shared_ptr<LiveFeed> feed, const QString &label = {}, int repetition = 0);
    // Whether this sweep takes the spec's profiles (an experiment profiles its last repetition
    // only), where their perf.data go (empty: PointProfiler::defaultFolder()) and the target's
    // name in their file names (empty: the spec's label).
    void setProfiling(bool take, const QString &folder = {}, const QString &label = {});
    // A distributed run (run --hosts): the target runs on the server host and each point's load
    // is split among the load hosts; `hosts` is connected already and outlives the sweep.
    void setHosts(std::shared_ptr<RemoteHosts> hosts) { m_hosts = std::move(hosts); }
    const QList<PointResult> &results() const { return m_results; }
    bool wasCancelled() const;

public Q_SLOTS:
    void run();

Q_SIGNALS:
    void pointStarted(int index, quint64 sizeBytes);
    void pointFinished(const servelab::lab::PointResult &result);
    void finished(bool cancelled);
    void failed(const QString &reason);

private:
    void runTarget(const std::unique_ptr<Target> &target);
    PointResult measure(int index, quint64 size, Target &target, metrics::ProcessSampler *sampler);
    QString loadHere(client::ClientOptions options, Target &target,
                     metrics::ProcessSampler *sampler, PointResult *point);
    QString loadRemotely(quint64 size, Target &target, PointResult *point);
    void judge(PointResult *point, const QString &untuned) const;

    SweepSpec m_spec;
    QList<PointResult> m_results;
    std::shared_ptr<RunControl> m_control;
    std::shared_ptr<LiveFeed> m_feed;
    std::shared_ptr<RemoteHosts> m_hosts;
    QString m_liveLabel;
    int m_liveRepetition = 0;
    bool m_profile = true;
    QString m_profileFolder;
    QString m_profileLabel;
    int m_cores = int(sysconf(_SC_NPROCESSORS_ONLN)); // what a verdict weighs CPU time against
    // Runs a client to its end; a cancel stops it meanwhile.
    template<typename Client, typename Run>
    auto runStoppable(Client &client, Run run);
    void runModel(const client::ClientOptions &options, PointResult *point);
};

} // namespace servelab::lab
